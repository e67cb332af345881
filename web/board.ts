// Draws a board as a grid of squares; queens from a placement (placement[row] = column).
import { toBoard } from '../dist/index.js';

export function boardElement(n: number, placement?: readonly number[], className = 'board'): HTMLDivElement {
  const board = document.createElement('div');
  board.className = className;
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.setProperty('--queen-size', `${Math.max(0.4, 10 / n)}rem`);
  if (placement) board.setAttribute('aria-label', toBoard(placement).join('\n'));
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const square = document.createElement('span');
      if ((r + c) % 2 === 1) square.classList.add('dark');
      square.dataset.row = String(r);
      square.dataset.col = String(c);
      square.textContent = placement?.[r] === c ? '♛' : '';
      board.append(square);
    }
  }
  return board;
}
