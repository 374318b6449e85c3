/**
 * Starknet's Pedersen hash of two field elements, on fixed-base tables:
 *
 *     H(a, b) = [P0 + a_low·P1 + a_high·P2 + b_low·P3 + b_high·P4].x
 *
 * where `_low` is an element's low 248 bits and `_high` its top bits (StarkWare's definition; the
 * five points are StarkWare's `constant_points` 0–4, as @scure/starknet lists them). The library
 * walks each element's 252 bits one at a time, adding a doubled point for every set bit and
 * comparing the running sum with it at every step (~250 point additions and ~500 comparisons a
 * hash). Here each low part is taken four bits at a time as signed digits in [−7, 8], against a
 * table of 1–8 times 16^i·P for each of its 62 digits: ~60 additions an element, the same sum
 * since the group is abelian and the curve's addition is complete (it handles every case the
 * library's comparison guards against, whose failure no field element reaches). Built on first
 * use, 2 × 62 × 8 points (about what the library's own tables cost). Reason: the hash was a sixth
 * of the unit tests' CPU and a dozen of them are an account's address (docs/benchmarks.md "Issue
 * 36, seventh round: the unit project"). shared/pedersen.test.ts holds it equal to both copies of
 * @scure/starknet's on random field elements and at the edges.
 */
import { Point } from '@scure/starknet';
import { STARK_PRIME } from './felt.js';

type CurvePoint = InstanceType<typeof Point>;

/**
 * StarkWare's Pedersen points (pedersen_params.json `constant_points` 0–4: the shift point, then
 * the low-248-bit and high-bit bases for the first element, then for the second), transcribed
 * from @scure/starknet 2.4 (`PEDERSEN_POINTS`); shared/pedersen.test.ts checks them by the hashes.
 */
const POINTS: ReadonlyArray<readonly [bigint, bigint]> = [
  [
    0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804n,
    0x3ca0cfe4b3bc6ddf346d49d06ea0ed34e621062c0e056c1d0405d266e10268an,
  ],
  [
    0x234287dcbaffe7f969c748655fca9e58fa8120b6d56eb0c1080d17957ebe47bn,
    0x3b056f100f96fb21e889527d41f4e39940135dd7a6c94cc6ed0268ee89e5615n,
  ],
  [
    0x4fa56f376c83db33f9dab2656558f3399099ec1de5e3018b7a6932dba8aa378n,
    0x3fa0984c931c9e38113e0c0e47e4401562761f92a7a23b45168f4e80ff5b54dn,
  ],
  [
    0x4ba4cc166be8dec764910f75b45f74b40c690c74709e90f3aa372f0bd2d6997n,
    0x40301cf5c1751f4b971e46c4ede85fcac5c59a5ce5ae7c48151f27b24b219cn,
  ],
  [
    0x54302dcb0e6cc1c6e44cca8f61a63bb2ca65048d53fb325d36ff12c49a58202n,
    0x1b77b3e37d13504b348046268d8ae25ce98ad783c25561a879dcc77e99c2426n,
  ],
];

/** Digits of a low part: 248 bits, four at a time. */
const DIGITS = 62;
const LOW_BITS = 248n;
const LOW_MASK = (1n << LOW_BITS) - 1n;

/** One element's tables: `rows[i][d − 1]` = d·16^i·low (d in 1–8), `carry` = 2^248·low, `high[d − 1]` = d·high. */
interface ElementTables {
  rows: CurvePoint[][];
  carry: CurvePoint;
  high: CurvePoint[];
}

/** The points 1·p … 8·p, and 16·p. */
function multiples(p: CurvePoint): { row: CurvePoint[]; sixteen: CurvePoint } {
  const two = p.double();
  const three = two.add(p);
  const four = two.double();
  const six = three.double();
  const eight = four.double();
  return {
    row: [p, two, three, four, four.add(p), six, six.add(p), eight],
    sixteen: eight.double(),
  };
}

function elementTables(low: CurvePoint, high: CurvePoint): ElementTables {
  const rows: CurvePoint[][] = [];
  let base = low;
  for (let i = 0; i < DIGITS; i++) {
    const { row, sixteen } = multiples(base);
    rows.push(row);
    base = sixteen;
  }
  return { rows, carry: base, high: multiples(high).row };
}

let tables: { shift: CurvePoint; first: ElementTables; second: ElementTables } | undefined;

function built(): NonNullable<typeof tables> {
  if (tables !== undefined) return tables;
  const [shift, firstLow, firstHigh, secondLow, secondHigh] = POINTS.map(
    ([x, y]) => new Point(x, y, 1n),
  ) as [CurvePoint, CurvePoint, CurvePoint, CurvePoint, CurvePoint];
  tables = {
    shift,
    first: elementTables(firstLow, firstHigh),
    second: elementTables(secondLow, secondHigh),
  };
  return tables;
}

/** `sum` + value·(its element's points), value a field element. */
function addElement(sum: CurvePoint, value: bigint, t: ElementTables): CurvePoint {
  // the low part's hex digits, least significant last; each read as a signed digit in [−7, 8]
  const hex = (value & LOW_MASK).toString(16);
  let carry = 0;
  for (let i = 0; i < DIGITS; i++) {
    const at = hex.length - 1 - i;
    let digit = (at >= 0 ? parseInt(hex[at] as string, 16) : 0) + carry;
    carry = 0;
    if (digit > 8) {
      digit -= 16;
      carry = 1;
    }
    if (digit > 0) sum = sum.add((t.rows[i] as CurvePoint[])[digit - 1] as CurvePoint);
    else if (digit < 0)
      sum = sum.add(((t.rows[i] as CurvePoint[])[-digit - 1] as CurvePoint).negate());
  }
  if (carry === 1) sum = sum.add(t.carry);
  // below P the top bits are at most 8 (P < 2^251 + 2^248)
  const top = Number(value >> LOW_BITS);
  if (top > 0) sum = sum.add(t.high[top - 1] as CurvePoint);
  return sum;
}

function fieldElement(value: bigint): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= STARK_PRIME)
    throw new RangeError('a Pedersen input must be a field element: 0 <= value < P');
  return value;
}

/** Pedersen(a, b) as a bigint: @scure/starknet's `pedersen`, whose result is the same x in hex. */
export function pedersen(a: bigint, b: bigint): bigint {
  const t = built();
  const sum = addElement(addElement(t.shift, fieldElement(a), t.first), fieldElement(b), t.second);
  return sum.toAffine().x;
}
