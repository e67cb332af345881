// Lists the half-boards of a set of rows from two quarter tables
// (quarter-tables.ts), as src/join/join-kernel.ts does.

import { align, at, band, D2, h, SHARES } from "./join-geometry";
import { colRank, colSets, colSetStart, generation, LOCK, pin, quarter, tableGen, WAITING } from "./quarter-tables";

/**
 * Writes to `out` every east-style half on `rows`, clear of the centre queen
 * (odd n), as its two diagonal masks (bit r + c low, bit r - c + h - 1
 * from D2; preparePass takes their window bits); returns how many.
 */
export function enumerateHalves(rows: i32, centreRow: i32, out: usize): i32 {
  let found = 0;
  const north = rows & ((1 << band) - 1);
  if (ASC_FEATURE_THREADS) {
    // A lock that wakes nobody when nobody waits (notify is a call into the host).
    let held = atomic.cmpxchg<i32>(LOCK, 0, 1);
    if (held != 0) {
      if (held != 2) held = atomic.xchg<i32>(LOCK, 2);
      while (held != 0) {
        atomic.wait<i32>(LOCK, 2);
        held = atomic.xchg<i32>(LOCK, 2);
      }
    }
  }
  const before = generation();
  let nT = quarter(north);
  const sT = quarter(rows >>> band);
  if (generation() != before) nT = quarter(north); // sT started a generation: nT's may be the half reused
  if (ASC_FEATURE_THREADS) {
    atomic.store<i32>(pin, min(load<i32>(at(tableGen, north)), load<i32>(at(tableGen, rows >>> band))));
    if (atomic.xchg<i32>(LOCK, 0) == 2) atomic.notify(LOCK, 1);
  }
  const k = <i32>popcnt(north);
  const first = load<i32>(at(colSetStart, k));
  const nD = nT + align(<usize>(load<i32>(at(colSetStart, k + 1)) - first + 1) << 2, 8);
  const sD = sT + align(<usize>(load<i32>(at(colSetStart, h - k + 1)) - load<i32>(at(colSetStart, h - k)) + 1) << 2, 8);
  const allCols = (1 << h) - 1;
  // An entry's two masks as one u64 (bit r + c low, bit r - c + h - 1 high); the centre queen's likewise.
  const cen: u64 = (centreRow >= 0 ? <u64>1 << <u64>(centreRow + h) : 0) | (centreRow >= 1 ? <u64>1 << <u64>(centreRow + <i32>D2 - 1) : 0);
  const shift = <u64>band; // south rows: both masks move by band (see D2)
  // The transpose's test (src/join/join-plan.ts), for when these halves are
  // probes: the other side's rows in the south band (numbered from the
  // board's last row) and in the north band. Even n only: odd n's shares are 1.
  const other = ~rows & ((1 << (2 * h)) - 1);
  let southRows = 0;
  for (let r = 0; r < h; r++) southRows |= ((other >>> (2 * h - 1 - r)) & 1) << r;
  const northRows = other & allCols;
  const sEnd = load<i32>(at(colSetStart, k + 1));
  for (let s = first; s < sEnd; s++) {
    const i = s - first;
    const cols = load<i32>(at(colSets, s));
    const j = load<i32>(at(colRank, allCols & ~cols));
    // This column set's shares: the board's main diagonal (r = c), then the other.
    const shares = <u64>select(share(southRows, cols) | (share(northRows, allCols & ~cols) << 2), 5, band == h) << SHARES;
    const yFirst = sD + (<usize>load<i32>(at(sT, j)) << 3);
    const yLast = sD + (<usize>load<i32>(at(sT, j + 1)) << 3);
    if (yFirst == yLast) continue;
    const xFirst = nD + (<usize>load<i32>(at(nT, i)) << 3);
    const xEnd = nD + (<usize>load<i32>(at(nT, i + 1)) << 3);
    for (let x = xFirst; x < xEnd; x += 8) {
      const nn = load<u64>(x) | shares;
      if (nn & cen) continue;
      const mm = nn | cen;
      for (let y = yFirst; y < yLast; y += 8) {
        const ss = load<u64>(y) << shift;
        // Branch-free: write every candidate, keep it only if it fits (one slot of slack past the last).
        store<u64>(out + (<usize>found << 3), nn | ss);
        found += <i32>((mm & ss) == 0);
      }
    }
  }
  if (ASC_FEATURE_THREADS) {
    atomic.store<i32>(pin, 0);
    if (atomic.load<i32>(WAITING) != 0) atomic.notify(pin, 1);
  }
  return found;
}

/** 2, 1 or 0 as the split's side of the transpose's test is below, equal to or above the probe's. */
// @ts-ignore: decorator
@inline function share(split: i32, probe: i32): i32 {
  return select(2, <i32>(split == probe), split < probe);
}
