/**
 * The tool server's stdio (docs/architecture.md "Tool server"): stdout carries the protocol
 * only; stdin is read line by line through a bound and a JSON check before the SDK sees it, so a
 * client never waits out its own timeout on a line the server could not take: a line that is not
 * JSON gets a -32700 "Parse error" with `id: null`, a batch (a JSON array, which this protocol
 * version does not have) and a line over the bound a -32600 "Invalid Request" naming the reason
 * (the bound in bytes). A JSON value that is not a JSON-RPC 2.0 message (not an object, no
 * `"jsonrpc": "2.0"`, no string `method` on a request, an `id` that is neither a string nor an
 * integer) gets a -32600 "Invalid Request" too, with the line's `id` when that is a valid id and
 * `null` otherwise: the SDK would drop it in silence (JSON-RPC 2.0 §4, §5: only a well-formed
 * notification goes unanswered). Such a line is dropped whole; the server goes on.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Longest JSON-RPC line taken; a tool's arguments are far smaller (schemas bound every field). */
export const MAX_LINE_BYTES = 1_048_576;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

interface LineReplies {
  /** writes one JSON-RPC message to the client (a line on stdout) */
  reply(message: Record<string, unknown>): void;
  /** one line to the log (stderr) */
  log(line: string): void;
}

const errorReply = (
  code: number,
  message: string,
  id: string | number | null = null,
): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

/** A JSON-RPC id this protocol takes (MCP: a string or an integer; never null). */
const isId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/** An object without `method` that carries `result` or `error`: a response, however malformed. */
const isResponseShaped = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !('method' in value) &&
  ('result' in value || 'error' in value);

/**
 * Why a parsed line is not a JSON-RPC 2.0 message the server can take (undefined: it is one): a
 * request or notification has a string `method`; a response (to the server's own requests, such as
 * an elicitation) has an id and exactly one of `result` or `error`.
 */
function invalidMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a message is a JSON object';
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'a message has "jsonrpc": "2.0"';
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return '"method" is a non-empty string';
    if ('id' in m && !isId(m.id)) return '"id" is a string or an integer';
    if ('params' in m && (typeof m.params !== 'object' || m.params === null)) {
      return '"params" is an object';
    }
    return undefined;
  }
  if (!('id' in m)) return 'a request has a "method"';
  if (!isId(m.id)) return '"id" is a string or an integer';
  if ('result' in m === 'error' in m) return 'a response has exactly one of "result" or "error"';
  return undefined;
}

/**
 * Passes on each line of at most `maxBytes` that is one JSON value other than an array; answers
 * every other line itself (see above).
 */
export function boundedLines(maxBytes: number, out: LineReplies): Transform {
  let pending: Buffer[] = [];
  let length = 0;
  let dropping = false;

  const finish = (line: Buffer): Buffer | undefined => {
    const text = line.toString('utf8').trim();
    if (text === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      out.log(`answered -32700: an input line of ${line.length} bytes is not JSON`);
      out.reply(errorReply(PARSE_ERROR, 'Parse error: the line is not valid JSON'));
      return undefined;
    }
    if (Array.isArray(parsed)) {
      out.log('answered -32600: a JSON-RPC batch');
      out.reply(
        errorReply(
          INVALID_REQUEST,
          'Invalid Request: batches (JSON arrays) are not supported; send one request per line',
        ),
      );
      return undefined;
    }
    const invalid = invalidMessage(parsed);
    if (invalid !== undefined && isResponseShaped(parsed)) {
      // never answer a response, even a malformed one: two peers that answer each other's
      // malformed responses loop (JSON-RPC 2.0 §5)
      out.log(`dropped a malformed response line (${invalid})`);
      return undefined;
    }
    if (invalid !== undefined) {
      const id = (parsed as { id?: unknown } | null)?.id;
      out.log(`answered -32600: an input line that is not a JSON-RPC 2.0 message (${invalid})`);
      out.reply(errorReply(INVALID_REQUEST, `Invalid Request: ${invalid}`, isId(id) ? id : null));
      return undefined;
    }
    return Buffer.from(`${text}\n`);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      const lines: Buffer[] = [];
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, end);
        if (!dropping) {
          if (length + piece.length > maxBytes) {
            dropping = true;
            pending = [];
          } else {
            pending.push(piece);
          }
        }
        length += piece.length;
        if (newline !== -1) {
          if (dropping) {
            out.log(`answered -32600: dropped an input line of ${length} bytes (over ${maxBytes})`);
            out.reply(
              errorReply(
                INVALID_REQUEST,
                `Invalid Request: the line is ${length} bytes, over the limit of ${maxBytes} bytes per message; it was dropped`,
              ),
            );
          } else {
            const line = finish(Buffer.concat(pending));
            if (line !== undefined) lines.push(line);
          }
          pending = [];
          length = 0;
          dropping = false;
        }
        start = newline === -1 ? chunk.length : newline + 1;
      }
      done(null, lines.length === 0 ? undefined : Buffer.concat(lines));
    },
  });
}
