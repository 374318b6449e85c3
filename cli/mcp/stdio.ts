/**
 * The tool server's stdio (docs/architecture.md "Tool server"): stdout carries the protocol
 * only; stdin is read through a line bound, so a client that sends one enormous line gets it
 * dropped (and a line on stderr) instead of a server that buffers it or closes.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Longest JSON-RPC line taken; a tool's arguments are far smaller (schemas bound every field). */
export const MAX_LINE_BYTES = 1_048_576;

/** Passes lines of at most `maxBytes` through; a longer line is dropped whole and reported. */
export function boundedLines(maxBytes: number, onDropped: (bytes: number) => void): Transform {
  let length = 0;
  let dropping = false;
  let dropped = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      const out: Buffer[] = [];
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        if (!dropping && length + piece.length > maxBytes + 1) {
          // the line in progress (already passed on) is cut: end it so the parser sees one bad line
          dropping = true;
          dropped = length;
          if (length > 0) out.push(Buffer.from('\n'));
        }
        if (dropping) dropped += piece.length;
        else out.push(piece);
        length += piece.length;
        if (newline !== -1) {
          if (dropping) onDropped(dropped);
          dropping = false;
          length = 0;
        }
        start = end;
      }
      done(null, out.length === 0 ? undefined : Buffer.concat(out));
    },
  });
}
