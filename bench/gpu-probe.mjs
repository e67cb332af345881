// Where the WebGPU shader's time goes, for a visit to a GPU machine
// (bench/gpu-device.sh). One fixed batch of units (n = 19, 12 rows left, the
// sixth dispatch of at most 382,912 units; with a smaller UNITS, the sixth batch of at most UNITS) is searched by variants of the
// shipped shader that search the same tree, each dispatch timed from
// submission to read-back, 1 warm-up then ROUNDS timed, the variants
// interleaved round by round. The variants:
// - shipped: the package's shader (stack in workgroup memory, one word a
//   row, 64 a workgroup, lookahead 2), on a device of Dawn's default instance
//   (bounds clamps on: the engine's own instance turns them off, see unchecked);
// - private: the stack in each invocation's private array;
// - wg32, wg128: 32 or 128 invocations a workgroup;
// - carryPair: the loop keeps the next row's table pair it loaded for a push
//   as that row's pair (ShaderLayout.carryPair), instead of reading it at every step;
// - backOver (and with carryPair): a step goes back over every row with no square
//   left, not one row (ShaderLayout.backOver: 0.74x the steps, 1.6x the time on an H100);
// - carryIndexes (with carryPair, with the private stack): the row kept as an
//   index into the row table and the stack entry's index carried from step to step;
// - countBranchless: a solution counted with select, no carry (exact here: no
//   invocation finds 2^32 solutions of one subproblem);
// - look0, look1, look3: the shader's lookahead (unitSearchShader's
//   `lookahead`; shipped: 2): a queen is pushed only where each of the next 1, 2
//   or 3 rows keeps a free square (0 pushes every one; 1, 2, 3 take 0.86x,
//   0.69x, 0.62x the loop steps of 0 at n = 16 and 17);
// - lastTwo: a queen two rows above the last counts the one or two ways to
//   end the board at once, instead of pushing a row for them;
// - searchAll: an invocation finds its unit's branch by a binary search of
//   all the dispatch's branches, not of those its block of 32 units spans;
// - unchecked: the shipped shader on a device of a Dawn instance created with
//   the toggle disable_robustness (no bounds clamps on array indexes);
// - the shipped shader with 8,192 to 262,144 invocations: where the time
//   stops falling is about how many invocations the GPU runs at once; and
//   with one invocation per unit (no unit taken after the first);
// - carried: the shipped shader with every sum's low word starting at 2^32 - 1,
//   so that each subproblem's first addition carries into the high word (the
//   start is taken off again): its `same` shows the carry is exact;
// - and a control that takes no unit: its `same` must be false, which shows
//   that the sums are cleared before each dispatch (each variant's own).
// Every variant's solutions must equal the shipped one's (`same`). One JSON line
// per variant: { variant, invocations, ms: [...], medianMs, solutions, same }.
//   node bench/gpu-probe.mjs [ROUNDS [UNITS]]   (after npm run build; Node with `webgpu`;
//   a smaller UNITS, such as 4096, checks the variants on a software adapter)
import { planSubproblems } from '../dist/search/constellations.js';
import { BufferUsage, MAP_READ } from '../dist/search/webgpu/webgpu-types.js';
import { BINDING_NAMES, unitSearchShader } from '../dist/search/webgpu/webgpu-shader.js';
import { BRANCH_WORDS, prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const N = 19;
const ROWS_LEFT = 12;
const UNITS = Number(process.argv[3] ?? 382_912);
const DAWN_PACKAGE = /** @type {string} */ ('webgpu');

/** The shipped shader with `from` replaced by `to` (each must occur). */
function edit(code, ...pairs) {
  for (const [from, to] of pairs) {
    if (!code.includes(from)) throw new Error(`gpu-probe: the shader no longer contains ${JSON.stringify(from)}`);
    code = code.split(from).join(to);
  }
  return code;
}

const workgroupOf = (size) => unitSearchShader(ROWS_LEFT, { workgroupSize: size });

const COUNT_BRANCHLESS = edit(unitSearchShader(ROWS_LEFT), [
  '        if (nextFree != 0u) {\n          low += 1u;\n          if (low == 0u) {\n            high += 1u;\n          }\n        }',
  '        low += select(0u, 1u, nextFree != 0u);',
]);

/** The hot loop's push at lookahead 1 (not where the next row has no free square), where lastTwo counts instead. */
const PUSH = '      } else if (nextFree != 0u) {\n        stack[(row - firstRow) * WORKGROUP_SIZE + lane] = free | bit;';

const LAST_TWO = edit(unitSearchShader(ROWS_LEFT, { lookahead: 1 }), [
  PUSH,
  [
    '      } else if (row + 2u == lastRow) {',
    '        // Two columns are left: each free square of the next row ends a solution where the last row keeps its square.',
    '        let after = rowTable[table + row + 1u].x;',
    '        let lastAttacks = rowTable[table + row + 1u].y;',
    '        var ends = nextFree;',
    '        while (ends != 0u) {',
    '          let end = ends & (0u - ends);',
    '          ends ^= end;',
    '          if (~((nextCols | end) | ((nextLd | end) << after) | ((nextRd | end) >> after) | lastAttacks) != 0u) {',
    '            low += 1u;',
    '            if (low == 0u) {',
    '              high += 1u;',
    '            }',
    '          }',
    '        }',
    PUSH,
  ].join('\n'),
]);

// The search of a unit's branch over all of the dispatch's branches, as before the block index (about 19 loads
// here, against at most 6). It still reads the block index: a layout 'auto' without binding 6 would refuse the
// bind group.
const SEARCH_ALL = edit(unitSearchShader(ROWS_LEFT), [
  '      var lo = blockBranch[block];\n      var hi = blockBranch[block + 1u] + 1u;\n',
  '      var lo = blockBranch[block] * 0u;\n      var hi = sizes.branches;\n',
]);

// (It still reads sizes.units: a layout 'auto' without binding 4 would refuse the bind group.)
const TAKES_NONE = edit(unitSearchShader(ROWS_LEFT), ['if (index >= sizes.units) {', 'if (index >= sizes.units || true) {']);

const variants = [
  ['shipped', unitSearchShader(ROWS_LEFT), 131_072, 64],
  ['private', unitSearchShader(ROWS_LEFT, { stackPlace: 'private' }), 131_072, 64],
  ['wg32', workgroupOf(32), 131_072, 32],
  ['wg128', workgroupOf(128), 131_072, 128],
  ['carryPair', unitSearchShader(ROWS_LEFT, { carryPair: true }), 131_072, 64],
  ['carryPair+unchecked', unitSearchShader(ROWS_LEFT, { carryPair: true }), 131_072, 64, 'unchecked'],
  ['backOver', unitSearchShader(ROWS_LEFT, { backOver: true }), 131_072, 64],
  ['backOver+carryPair', unitSearchShader(ROWS_LEFT, { backOver: true, carryPair: true }), 131_072, 64],
  ['carryIndexes', unitSearchShader(ROWS_LEFT, { carryIndexes: true }), 131_072, 64],
  ['carryIndexes+carryPair', unitSearchShader(ROWS_LEFT, { carryIndexes: true, carryPair: true }), 131_072, 64],
  ['carryIndexes+private', unitSearchShader(ROWS_LEFT, { carryIndexes: true, stackPlace: 'private' }), 131_072, 64],
  ['countBranchless', COUNT_BRANCHLESS, 131_072, 64],
  ...[0, 1, 3].map((lookahead) => [`look${lookahead}`, unitSearchShader(ROWS_LEFT, { lookahead }), 131_072, 64]),
  ['lastTwo', LAST_TWO, 131_072, 64],
  ['searchAll', SEARCH_ALL, 131_072, 64],
  ['unchecked', unitSearchShader(ROWS_LEFT), 131_072, 64, 'unchecked'],
  // Lookahead 3 with each of the others, so that one visit can find the best combination.
  ['look3+unchecked', unitSearchShader(ROWS_LEFT, { lookahead: 3 }), 131_072, 64, 'unchecked'],
  ...[8_192, 16_384, 32_768, 65_536, 262_144, UNITS].map((invocations) => ['shipped', unitSearchShader(ROWS_LEFT), invocations, 64]),
  ['carried', unitSearchShader(ROWS_LEFT), 131_072, 64],
  ['control', TAKES_NONE, 131_072, 64],
];
/** The low word every sum starts from in the 'carried' variant. */
const CARRIED_START = 0xffff_ffff;

// The batch: the plan's sixth dispatch of n = 19.
const prepared = prepareSubproblems(N, planSubproblems(N));
const stream = new UnitStream(prepared, ROWS_LEFT);
const batchUnits = new UnitBatch(UNITS);
for (let d = 0; d < 6; d++) stream.fill(batchUnits);
const count = batchUnits.unitCount;
const { first, span } = batchUnits.subproblems();

const dawn = await import(DAWN_PACKAGE);
const { branchCount } = batchUnits;

/**
 * A device of its own Dawn instance (held until the end: an instance must outlive its device), with the
 * adapter's workgroup memory (wg128 may need more than the default 16 KiB), and the batch's buffers.
 */
async function openDevice(flags) {
  const gpu = dawn.create(flags);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('gpu-probe: no adapter');
  const device = await adapter.requestDevice({
    requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const buffer = (size, usage) => device.createBuffer({ size: Math.max(16, size), usage });
  const buffers = {
    branches: buffer(branchCount * BRANCH_WORDS * 4, BufferUsage.STORAGE | BufferUsage.COPY_DST),
    firstUnit: buffer(branchCount * 4, BufferUsage.STORAGE | BufferUsage.COPY_DST),
    blockBranch: buffer(batchUnits.blockCount * 4, BufferUsage.STORAGE | BufferUsage.COPY_DST),
    rowTable: buffer(prepared.rowTable.byteLength, BufferUsage.STORAGE | BufferUsage.COPY_DST),
    sums: buffer(span * 8, BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST), // COPY_DST: cleared
    readBack: buffer(span * 8, BufferUsage.MAP_READ | BufferUsage.COPY_DST),
    sizes: buffer(16, BufferUsage.UNIFORM | BufferUsage.COPY_DST),
    handedOut: buffer(16, BufferUsage.STORAGE | BufferUsage.COPY_DST),
  };
  device.queue.writeBuffer(buffers.branches, 0, batchUnits.branches.subarray(0, branchCount * BRANCH_WORDS));
  device.queue.writeBuffer(buffers.firstUnit, 0, batchUnits.firstUnit.subarray(0, branchCount));
  device.queue.writeBuffer(buffers.blockBranch, 0, batchUnits.blockBranch.subarray(0, batchUnits.blockCount));
  device.queue.writeBuffer(buffers.rowTable, 0, prepared.rowTable);
  device.queue.writeBuffer(buffers.sizes, 0, new Uint32Array([count, branchCount, first, 0]));
  return { gpu, device, buffers };
}

const opened = { default: await openDevice([]), unchecked: await openDevice(['enable-dawn-features=disable_robustness']) };

const runs = await Promise.all(
  variants.map(async ([name, code, invocations, size, where = 'default']) => {
    const { device, buffers } = opened[where];
    const pipeline = await device.createComputePipelineAsync({
      layout: 'auto',
      compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
    });
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: BINDING_NAMES.map((name, binding) => ({ binding, resource: { buffer: buffers[name] } })),
    });
    return { name, invocations, size, device, buffers, pipeline, bindGroup, ms: [], solutions: 0n };
  }),
);

/** One dispatch of the batch; its ms from submission to read-back, and its solutions. */
async function dispatch(run) {
  const { device } = run;
  const { sums, readBack, handedOut } = run.buffers;
  // The sums of the variant before are cleared, here and in the read-back (which a dispatch the device
  // refuses leaves as it was), so a variant that writes none cannot pass for the same; not timed.
  const clear = device.createCommandEncoder();
  clear.clearBuffer(sums);
  clear.clearBuffer(readBack);
  device.queue.writeBuffer(handedOut, 0, new Uint32Array(4));
  device.queue.submit([clear.finish()]);
  if (run.name === 'carried')
    device.queue.writeBuffer(
      sums,
      0,
      new Uint32Array(span * 2).map((_, i) => (i % 2 === 0 ? CARRIED_START : 0)),
    );
  await device.queue.onSubmittedWorkDone();
  const start = performance.now();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(run.pipeline);
  pass.setBindGroup(0, run.bindGroup);
  pass.dispatchWorkgroups(Math.ceil(Math.min(count, run.invocations) / run.size));
  pass.end();
  encoder.copyBufferToBuffer(sums, 0, readBack, 0, span * 8);
  device.queue.submit([encoder.finish()]);
  await readBack.mapAsync(MAP_READ);
  const ms = performance.now() - start;
  const got = new Uint32Array(readBack.getMappedRange(0, span * 8));
  let solutions = 0n;
  for (let k = 0; k < span; k++) solutions += BigInt(got[k * 2]) + (BigInt(got[k * 2 + 1]) << 32n);
  readBack.unmap();
  if (run.name === 'carried') solutions -= BigInt(span) * BigInt(CARRIED_START);
  return { ms, solutions };
}

for (const run of runs) await dispatch(run); // warm-up: the driver's first use of each pipeline
for (let round = 0; round < ROUNDS; round++) {
  for (const run of runs) {
    const { ms, solutions } = await dispatch(run);
    run.ms.push(Math.round(ms * 10) / 10);
    run.solutions = solutions;
  }
}
const expected = runs[0].solutions;
for (const { name, invocations, ms, solutions } of runs) {
  const medianMs = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];
  console.log(JSON.stringify({ variant: name, invocations, ms, medianMs, solutions: String(solutions), same: solutions === expected }));
}
for (const { device } of Object.values(opened)) device.destroy();
