// The WebGPU engine's compute shader (WGSL): one invocation searches one work
// unit (src/search/webgpu/webgpu-units.ts) to the last row and writes how many
// solutions it found, as two 32-bit words (WGSL has no 64-bit integers).
// test/fixtures/webgpu/cpu-twin.mjs runs the same loop on the CPU: change both.
//
// Shaped after the published GPU solvers (NQueensFAF's OpenCL kernel,
// Somers-style bitmask searches on GPUs):
// - no recursion: one loop, where every step places the lowest free queen,
//   after going back a row first where the current one has none left, so the
//   invocations of a wave stay on the same path as long as their searches
//   allow (a step that only went back cost a fifth of all steps);
// - a queen on the second-to-last row is counted at once where the last row
//   has its square free, without a step there;
// - the private state is the current row's masks plus a stack exactly as
//   deep as the refinement left rows (generated per count), to keep
//   registers and scratch memory, and so occupancy, in check;
// - neighbouring invocations search units of the same subproblem, so their
//   row-table reads hit the same addresses.

/** Invocations per workgroup: a multiple of every common wave size (32, 64). */
export const WORKGROUP_SIZE = 64;

/** The shader for units with at most `maxRowsLeft` rows to search. */
export function unitSearchShader(maxRowsLeft: number): string {
  // The stack holds the rows above the one being searched; the last two rows are never pushed.
  const stackRows = Math.max(1, maxRowsLeft - 2);
  return /* wgsl */ `
struct Batch {
  count: u32,
}

// This dispatch's units, four words each: taken columns, diagonals, (subproblem << 10) | (first row << 5) | last row.
@group(0) @binding(0) var<storage, read> units: array<vec4<u32>>;
// Per subproblem, 32 rows of (border queens' attacks, shift to the next inner row).
@group(0) @binding(1) var<storage, read> rowTable: array<vec2<u32>>;
// Per invocation (one per unit of this dispatch): its solutions, low word then high word.
@group(0) @binding(2) var<storage, read_write> counts: array<vec2<u32>>;
@group(0) @binding(3) var<uniform> batch: Batch;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let index = id.x;
  if (index >= batch.count) {
    return;
  }
  let unit = units[index];
  let table = (unit.w >> 10u) * 32u;
  let firstRow = (unit.w >> 5u) & 31u;
  let lastRow = unit.w & 31u;
  var row = firstRow;
  var cols = unit.x;
  var ld = unit.y;
  var rd = unit.z;
  var free = ~(cols | ld | rd | rowTable[table + row].x);
  var low = 0u;
  var high = 0u;
  var stack: array<vec4<u32>, ${stackRows}>;
  if (row == lastRow) {
    // As many columns are free as rows are left, so the last row has at most one free square.
    low = select(0u, 1u, free != 0u);
    free = 0u;
  }
  loop {
    if (free == 0u) {
      if (row == firstRow) {
        break;
      }
      row -= 1u;
      let saved = stack[row - firstRow];
      free = saved.x;
      cols = saved.y;
      ld = saved.z;
      rd = saved.w;
    }
    if (free != 0u) {
      let bit = free & (0u - free);
      free ^= bit;
      let shift = rowTable[table + row].y;
      let nextCols = cols | bit;
      let nextLd = (ld | bit) << shift;
      let nextRd = (rd | bit) >> shift;
      let nextFree = ~(nextCols | nextLd | nextRd | rowTable[table + row + 1u].x);
      if (row + 1u == lastRow) {
        if (nextFree != 0u) {
          low += 1u;
          if (low == 0u) {
            high += 1u;
          }
        }
      } else {
        stack[row - firstRow] = vec4<u32>(free, cols, ld, rd);
        cols = nextCols;
        ld = nextLd;
        rd = nextRd;
        free = nextFree;
        row += 1u;
      }
    }
  }
  counts[index] = vec2<u32>(low, high);
}
`;
}
