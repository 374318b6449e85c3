/**
 * The tool server's stdio (docs/architecture.md "Tool server"): stdout carries the protocol
 * only; stdin is read line by line through a bound and a JSON check before the SDK sees it, so a
 * client never waits out its own timeout on a line the server could not take: a line that is not
 * JSON gets a -32700 "Parse error" with `id: null`, a batch (a JSON array, which this protocol
 * version does not have) and a line over the bound a -32600 "Invalid Request" naming the reason
 * (the bound in bytes). Such a line is dropped whole; the server goes on.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Longest JSON-RPC line taken; a tool's arguments are far smaller (schemas bound every field). */
export const MAX_LINE_BYTES = 1_048_576;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface LineReplies {
  /** writes one JSON-RPC message to the client (a line on stdout) */
  reply(message: Record<string, unknown>): void;
  /** one line to the log (stderr) */
  log(line: string): void;
}

const errorReply = (code: number, message: string): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
});

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
