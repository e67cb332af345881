// The board viewer of the demo page: pages through the solutions of any n
// with `after` (all of them, or the fundamental ones with their 8 images),
// and a board to click queens onto, with the live number of completions.
import { countCompletions, solutions, type Queen } from '../dist/index.js';
import { boardElement } from './board';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const integer = new Intl.NumberFormat('en-US');

/** Wires up the viewer and the completion board (called by main.ts). */
export function setupViewer(): void {
  // Both forms act on change and click; Enter in their inputs must not reload the page.
  for (const id of ['viewer-controls', 'complete-controls']) $(id).addEventListener('submit', (event) => event.preventDefault());

  // ---- Paging through solutions ---------------------------------------------

  const pageN = $<HTMLInputElement>('viewer-n');
  const pageMode = $<HTMLSelectElement>('viewer-mode');
  const firstButton = $<HTMLButtonElement>('viewer-first');
  const prevButton = $<HTMLButtonElement>('viewer-prev');
  const nextButton = $<HTMLButtonElement>('viewer-next');
  const pageStatus = $('viewer-status');
  const pageBoard = $('viewer-board');
  const pageImages = $('viewer-images');

  /** The solutions seen so far (Previous goes back through them); `after` fetches each next one. */
  let visited: number[][] = [];
  let index = -1;
  let atEnd = false;

  const SYMMETRIES: [string, (r: number, c: number, n: number) => [number, number]][] = [
    ['identity', (r, c) => [r, c]],
    ['quarter turn', (r, c, n) => [c, n - 1 - r]],
    ['half turn', (r, c, n) => [n - 1 - r, n - 1 - c]],
    ['three-quarter turn', (r, c, n) => [n - 1 - c, r]],
    ['mirror left-right', (r, c, n) => [r, n - 1 - c]],
    ['mirror top-bottom', (r, c, n) => [n - 1 - r, c]],
    ['transpose', (r, c) => [c, r]],
    ['anti-transpose', (r, c, n) => [n - 1 - c, n - 1 - r]],
  ];

  function image(p: readonly number[], f: (r: number, c: number, n: number) => [number, number]): number[] {
    const q = new Array<number>(p.length);
    p.forEach((c, r) => {
      const [r2, c2] = f(r, c, p.length);
      q[r2] = c2;
    });
    return q;
  }

  function showPage(): void {
    const n = pageN.valueAsNumber;
    const unique = pageMode.value === 'fundamental';
    pageBoard.replaceChildren();
    pageImages.replaceChildren();
    // Buttons that lead nowhere are off: the first page has no previous, the last solution no next.
    firstButton.disabled = index <= 0;
    prevButton.disabled = index <= 0;
    nextButton.disabled = atEnd && index === visited.length - 1;
    if (index < 0) {
      pageStatus.textContent = `N = ${n} has no ${unique ? 'fundamental ' : ''}solutions.`;
      return;
    }
    const p = visited[index];
    pageStatus.textContent = `${unique ? 'Fundamental solution' : 'Solution'} ${integer.format(index + 1)} of N = ${n}: [${p.join(', ')}]${
      atEnd && index === visited.length - 1 ? ' (the last)' : ''
    }`;
    pageBoard.append(boardElement(n, p));
    if (unique) {
      for (const [name, f] of SYMMETRIES) {
        const figure = document.createElement('figure');
        const caption = document.createElement('figcaption');
        caption.textContent = name;
        figure.append(boardElement(n, image(p, f), 'board small'), caption);
        pageImages.append(figure);
      }
    }
  }

  /** Whether `n` is an N the API takes (1 to 32, whole). */
  const validN = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 32;

  function fetchNext(): void {
    const n = pageN.valueAsNumber;
    if (!validN(n)) {
      // Nothing of the previous N stays up, and no button leads anywhere.
      pageStatus.textContent = 'Pick N, a whole number from 1 to 32.';
      pageBoard.replaceChildren();
      pageImages.replaceChildren();
      for (const button of [firstButton, prevButton, nextButton]) button.disabled = true;
      return;
    }
    const unique = pageMode.value === 'fundamental';
    const after = index >= 0 ? visited[index] : undefined;
    // One more than shown, so that Next is disabled on the last solution rather than after it.
    const [next, beyond] = solutions(n, { unique, after, limit: 2 });
    if (next) {
      visited.push(next);
      index++;
    }
    atEnd = beyond === undefined;
    showPage();
  }

  function restart(): void {
    visited = [];
    index = -1;
    atEnd = false;
    fetchNext();
  }

  firstButton.addEventListener('click', () => {
    if (visited.length) {
      index = 0;
      showPage();
    } else restart();
  });
  prevButton.addEventListener('click', () => {
    if (index > 0) index--;
    showPage();
  });
  nextButton.addEventListener('click', () => {
    if (index + 1 < visited.length) {
      index++;
      showPage();
    } else fetchNext();
  });
  pageN.addEventListener('change', restart);
  pageMode.addEventListener('change', restart);
  restart();

  // ---- Completing a board ---------------------------------------------------

  const completeN = $<HTMLInputElement>('complete-n');
  const completeBoard = $('complete-board');
  const completeCount = $('complete-count');
  const completeStatus = $('complete-status');
  const clearButton = $<HTMLButtonElement>('complete-clear');

  /** Up to this n an empty board's count (every solution) takes milliseconds, so it is shown at once. */
  const EMPTY_BOARD_MAX_N = 12;
  let placed: Queen[] = [];
  let counting: AbortController | undefined;

  function drawCompletionBoard(): void {
    const n = completeN.valueAsNumber;
    const board = boardElement(n, undefined, 'board clickable');
    for (const [r, c] of placed) board.children[r * n + c].textContent = '♛';
    // Two queens that attack each other are marked, so the user sees which click to undo.
    for (const [r, c] of attackingPair(placed)?.queens ?? []) board.children[r * n + c].classList.add('attacking');
    completeBoard.replaceChildren(board);
  }

  /** The first two placed queens that attack each other, and how (the API refuses such a board). */
  function attackingPair(queens: readonly Queen[]): { queens: [Queen, Queen]; how: string } | undefined {
    for (let i = 0; i < queens.length; i++) {
      for (let j = i + 1; j < queens.length; j++) {
        const [[r1, c1], [r2, c2]] = [queens[i], queens[j]];
        const how =
          r1 === r2 ? 'share a row' : c1 === c2 ? 'share a column' : Math.abs(r1 - r2) === Math.abs(c1 - c2) ? 'share a diagonal' : '';
        if (how) return { queens: [queens[i], queens[j]], how };
      }
    }
    return undefined;
  }

  async function recount(): Promise<void> {
    counting?.abort();
    counting = undefined;
    const n = completeN.valueAsNumber;
    // An empty board asks for every solution of n: a long count past small n, which a
    // Clear or a new N must not start unasked (the Count form above counts whole boards).
    if (placed.length === 0 && n > EMPTY_BOARD_MAX_N) {
      completeCount.textContent = '–';
      completeStatus.textContent = `No queens placed: click squares to count the solutions that contain them (for every solution of N = ${n}, use Count above).`;
      return;
    }
    const clash = attackingPair(placed);
    if (clash) {
      // Checked here as the API would (it refuses with ERR_NQUEENS_ATTACKING_QUEENS): the answer is 0, said in words.
      const [[r1, c1], [r2, c2]] = clash.queens;
      completeCount.textContent = '0';
      completeStatus.textContent = `The queens [${r1}, ${c1}] and [${r2}, ${c2}] attack each other (they ${clash.how}): no solution contains both. Click one to remove it.`;
      return;
    }
    const run = new AbortController();
    counting = run;
    completeCount.textContent = '…';
    completeStatus.textContent = `Counting the completions of ${placed.length} queen${placed.length === 1 ? '' : 's'}…`;
    try {
      const r = await countCompletions(n, placed, {
        signal: run.signal,
        onProgress: (p) => {
          if (counting === run && p.fraction < 1)
            completeStatus.textContent = `Counting… ${(p.fraction * 100).toFixed(0)}%, ${integer.format(p.total)} so far`;
        },
      });
      if (counting !== run) return;
      completeCount.textContent = integer.format(r.total);
      completeStatus.textContent = `${placed.length} queen${placed.length === 1 ? '' : 's'} placed: ${integer.format(r.total)} solution${
        r.total === 1n ? '' : 's'
      } contain${r.total === 1n ? 's' : ''} ${placed.length === 1 ? 'it' : 'them'} (${r.engine}, ${r.threads} thread${r.threads === 1 ? '' : 's'}, ${r.elapsedMs.toFixed(1)} ms).`;
    } catch (error) {
      if (counting !== run) return;
      const e = error as Error;
      completeCount.textContent = e.name === 'RangeError' ? '0' : '–';
      completeStatus.textContent = e.name === 'AbortError' ? 'Cancelled.' : `${e.name}: ${e.message}`;
    }
  }

  completeBoard.addEventListener('click', (event) => {
    const square = (event.target as HTMLElement).closest<HTMLElement>('span[data-row]');
    if (!square) return;
    const r = Number(square.dataset.row);
    const c = Number(square.dataset.col);
    const at = placed.findIndex(([qr, qc]) => qr === r && qc === c);
    if (at >= 0) placed.splice(at, 1);
    else placed.push([r, c]);
    drawCompletionBoard();
    void recount();
  });
  clearButton.addEventListener('click', () => {
    placed = [];
    drawCompletionBoard();
    void recount();
  });
  // On input, not change: change fires on blur, which a click on the board causes, and redrawing then would lose that click.
  completeN.addEventListener('input', () => {
    const n = completeN.valueAsNumber;
    if (!validN(n)) {
      counting?.abort();
      counting = undefined;
      completeBoard.replaceChildren();
      completeCount.textContent = '–';
      completeStatus.textContent = 'Pick N, a whole number from 1 to 32.';
      return;
    }
    placed = placed.filter(([r, c]) => r < n && c < n);
    drawCompletionBoard();
    void recount();
  });
  drawCompletionBoard();
  void recount();
}
