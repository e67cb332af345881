// A one-line progress bar for long counts, drawn on a terminal's stderr only.
import type { Progress } from '../index.js';

export interface ProgressBar {
  update(p: Progress): void;
  clear(): void;
}

const WIDTH = 24;
const SHOW_AFTER_MS = 500;

/** Seconds as `42s`, `3m05s` or `2h07m`: rounded to the last unit shown first, so 59.6 s is `1m00s`, never `60s` (nor `1m60s`, `1h60m`). */
function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const seconds = Math.round(s);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** A share as a percentage: one decimal, or two significant digits below 0.1% (n = 24 has 677,294 units). */
function percent(fraction: number): string {
  return fraction > 0 && fraction < 0.001 ? (fraction * 100).toPrecision(2) : (fraction * 100).toFixed(1);
}

/**
 * The bar on `stream` where it is a terminal. It redraws in place with a
 * carriage return and the erase-line code, or, on a terminal that has no
 * control codes (`TERM=dumb`: Emacs' shell, some CI consoles), by writing
 * spaces over what was there.
 */
/** Where the bar is drawn: a stream, or a terminal that may drop a frame while it holds output (writeFrame). */
export type Screen = Pick<NodeJS.WriteStream, 'isTTY' | 'columns' | 'write'> & { writeFrame?: (text: string) => void };

export function progressBar(stream: Screen, term = process.env.TERM): ProgressBar {
  if (!stream.isTTY) return { update() {}, clear() {} };
  const plain = term === 'dumb';
  let shown = 0; // characters on the line now
  /** Draws `line` cut to the terminal's width (padding past it would wrap where the terminal narrowed). */
  // A frame may be dropped (the next replaces it); the clearing is never (the result would follow the bar's text).
  const draw = (line: string, frame = true): void => {
    const room = (stream.columns || 100) - 1;
    const text = line.slice(0, room);
    const over = Math.min(shown, room);
    const drawn = plain ? `\r${text.padEnd(over)}${text.length < over ? `\r${text}` : ''}` : `\r${text}\x1b[K`;
    if (frame && stream.writeFrame) stream.writeFrame(drawn);
    else stream.write(drawn);
    shown = text.length;
  };
  return {
    update(p) {
      // Not for a count that ends within it, at 100% either: it would be drawn only to be cleared.
      if (p.elapsedMs < SHOW_AFTER_MS) return;
      const filled = Math.round(p.fraction * WIDTH);
      const bar = '#'.repeat(filled) + '-'.repeat(WIDTH - filled);
      // Largest units run first, so this estimate errs on the long side. Only
      // this run's share counts: a resumed checkpoint's work took no time here.
      const doneHere = p.fraction - (p.resumedFraction ?? 0);
      const eta = doneHere > 0 ? ((p.elapsedMs / doneHere) * (1 - p.fraction)) / 1000 : Infinity;
      const line = `[${bar}] ${percent(p.fraction)}%  ${p.finished}/${p.units} units  ${p.total} solutions  ${p.phase === 'tables' ? 'building tables' : `eta ${formatSeconds(eta)}`}`;
      draw(line);
    },
    clear() {
      if (shown > 0) draw('', false);
      shown = 0;
    },
  };
}
