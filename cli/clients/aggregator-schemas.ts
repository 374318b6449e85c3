/**
 * The aggregator's responses (docs/contracts.md B) as TypeBox schemas, and their conversion to our
 * typed, bigint-carrying Route. Lenient where the contract marks variants (decimals and price as
 * number or string; routeBatch as an array or `{success, routes}`), strict on everything an
 * amount or an address depends on.
 *
 * Every text of the service (token symbols and names, pool names, string prices, error
 * messages) is made printable here, where it enters the client (shared/printable.ts), so no
 * face and no file ever gets an escape sequence from it.
 */
import * as Type from 'typebox';
import { schemaCheck } from './schema-check.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { FELT_HEX_PATTERN, FELT_TEXT_PATTERN } from '../../shared/felt.js';
import { addressToBigInt, parseAddress } from '../../shared/tokens.js';

const NumberOrString = Type.Union([Type.Number(), Type.String()]);
const BaseUnits = Type.String({ pattern: '^[0-9]{1,78}$' });
// Either case of the 0x prefix: addresses are compared as numbers (docs/contracts.md D).
const Felt = Type.String({ pattern: FELT_HEX_PATTERN });
const Percent = Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]+)?%$' });

const WireToken = Type.Object({
  name: Type.Optional(Type.String()),
  symbol: Type.String(),
  address: Felt,
  decimals: NumberOrString,
  price: Type.Optional(Type.Union([NumberOrString, Type.Null()])),
});

const WireSwap = Type.Object({
  protocol: NumberOrString,
  poolName: Type.String(),
  poolAddress: Felt,
  fromTokenAddress: Felt,
  toTokenAddress: Felt,
  percent: Percent,
  extraData: Type.Optional(Type.Unknown()),
});

const WireRouteSuccess = Type.Object({
  success: Type.Literal(true),
  inputToken: WireToken,
  outputToken: WireToken,
  inputAmount: BaseUnits,
  outputAmount: BaseUnits,
  estimatedGasUsed: Type.Optional(NumberOrString),
  estimatedGasUsedInUsd: Type.Optional(Type.Union([NumberOrString, Type.Null()])),
  route: Type.Array(
    Type.Object({
      percent: Percent,
      swaps: Type.Array(Type.Array(WireSwap, { minItems: 1 }), { minItems: 1 }),
    }),
    {
      minItems: 1,
    },
  ),
  time: Type.Optional(NumberOrString),
});

const WireNoRoute = Type.Object({
  success: Type.Literal(false),
  errorMessage: Type.Optional(Type.String()),
});
const WireRouteResponse = Type.Union([WireRouteSuccess, WireNoRoute]);

type WireRouteSuccess = Type.Static<typeof WireRouteSuccess>;

const Calldata = Type.Array(Type.String({ pattern: FELT_TEXT_PATTERN }));

export const RouteResponseCheck = schemaCheck(WireRouteResponse);
export const CalldataResponseCheck = schemaCheck(
  Type.Union([Type.Object({ route: WireRouteResponse, calldata: Calldata }), WireNoRoute]),
);
export const RouteBatchCheck = schemaCheck(
  Type.Union([
    Type.Array(WireRouteResponse),
    Type.Object({
      success: Type.Boolean(),
      routes: Type.Optional(Type.Array(WireRouteResponse)),
      errorMessage: Type.Optional(Type.String()),
    }),
  ]),
);
export const ExecuteBatchCheck = schemaCheck(Type.Union([Type.Array(Calldata), WireNoRoute]));
// A status code: a number or a numeric string ("200"). `{}` or `{"status": "ok"}` is not a
// health answer of this service, so it is INVALID_RESPONSE rather than a guess.
const HealthStatus = Type.Union([
  Type.Integer({ minimum: 0, maximum: 999 }),
  Type.String({ pattern: '^[0-9]{1,3}$' }),
]);
export const HealthCheck = schemaCheck(
  Type.Union([
    // The real service misspells the field ("staus"); the correct spelling is accepted too.
    Type.Object({
      staus: HealthStatus,
      status: Type.Optional(Type.Unknown()),
      message: Type.Optional(Type.String()),
    }),
    Type.Object({
      staus: Type.Optional(Type.Null()),
      status: HealthStatus,
      message: Type.Optional(Type.String()),
    }),
  ]),
);

export interface RouteToken {
  symbol: string;
  name: string | undefined;
  address: string;
  decimals: number;
  /** USD price as sent (number or string); display data only, never used on an amount */
  price: number | string | undefined;
}

export interface RouteSwap {
  protocol: number;
  poolName: string;
  poolAddress: string;
  fromTokenAddress: string;
  toTokenAddress: string;
  percent: string;
}

export interface RouteLeg {
  percent: string;
  /** hops in order; each hop is a list of parallel pool swaps */
  hops: RouteSwap[][];
}

export interface Route {
  inputToken: RouteToken;
  outputToken: RouteToken;
  inputAmount: bigint;
  /** gross: the service fee is not deducted (see shared/fees.ts) */
  outputAmount: bigint;
  estimatedGasUsed: bigint | undefined;
  estimatedGasUsedInUsd: string | undefined;
  legs: RouteLeg[];
}

export function invalidResponse(url: string, why: string): AppError {
  return new AppError(
    ErrorCode.INVALID_RESPONSE,
    `the aggregator at ${url} sent an unexpected response: ${why}`,
  );
}

export function noRoute(message: string | undefined, pair?: string): AppError {
  const text = printable(message ?? '') || 'no route found';
  return new AppError(ErrorCode.NO_ROUTE_FOUND, pair ? `${pair}: ${text}` : text);
}

function integer(value: number | string, url: string, what: string, max: number): number {
  const text = String(value).trim();
  if (!/^[0-9]{1,6}$/.test(text) || Number(text) > max)
    throw invalidResponse(url, `${what} is not an integer 0..${max}`);
  return Number(text);
}

function token(wire: Type.Static<typeof WireToken>, url: string): RouteToken {
  return {
    symbol: printable(wire.symbol, 32),
    name: wire.name === undefined ? undefined : printable(wire.name, 100),
    address: parseAddress(wire.address, 'token address'),
    decimals: integer(wire.decimals, url, `decimals of ${printable(wire.symbol, 32)}`, 77),
    price: typeof wire.price === 'string' ? printable(wire.price, 40) : (wire.price ?? undefined),
  };
}

/** A schema-checked success body → Route. Gas is display data; kept exact when it is an integer. */
export function toRoute(wire: WireRouteSuccess, url: string): Route {
  const gas =
    wire.estimatedGasUsed === undefined ? undefined : String(wire.estimatedGasUsed).trim();
  let estimatedGasUsed: bigint | undefined;
  if (gas !== undefined && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(gas)) estimatedGasUsed = BigInt(gas);
  const legs = wire.route.map((leg) => ({
    percent: leg.percent,
    hops: leg.swaps.map((hop) =>
      hop.map((s) => ({
        protocol: integer(s.protocol, url, 'protocol', 1_000_000),
        poolName: printable(s.poolName, 100),
        poolAddress: parseAddress(s.poolAddress, 'pool address'),
        fromTokenAddress: parseAddress(s.fromTokenAddress, 'token address'),
        toTokenAddress: parseAddress(s.toTokenAddress, 'token address'),
        percent: s.percent,
      })),
    ),
  }));
  return {
    inputToken: token(wire.inputToken, url),
    outputToken: token(wire.outputToken, url),
    inputAmount: BigInt(wire.inputAmount),
    outputAmount: BigInt(wire.outputAmount),
    estimatedGasUsed,
    estimatedGasUsedInUsd:
      wire.estimatedGasUsedInUsd === undefined || wire.estimatedGasUsedInUsd === null
        ? undefined
        : printable(String(wire.estimatedGasUsedInUsd), 40),
    legs,
  };
}

/** The route must be for what we asked: same tokens, same input amount. Anything else is junk. */
export function checkRouteMatches(
  route: Route,
  request: { amount: bigint; tokenIn: string; tokenOut: string },
  url: string,
): void {
  if (addressToBigInt(route.inputToken.address) !== addressToBigInt(request.tokenIn))
    throw invalidResponse(url, 'route is for another input token');
  if (addressToBigInt(route.outputToken.address) !== addressToBigInt(request.tokenOut))
    throw invalidResponse(url, 'route is for another output token');
  if (route.inputAmount !== request.amount)
    throw invalidResponse(url, 'route is for another input amount');
}
