// What a peers figure was measured on: the CPU by name and number, the SIMD
// it offers (the C++ program's vector width follows from -march=native), its
// caches, Node and the date. Printed above every table and stored with every
// whole count, since the ratio to the C++ moves between machines.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The flags that decide the C++ program's vector width and our kernels' instructions. */
const SIMD_FLAGS = ['sse4_2', 'popcnt', 'avx', 'avx2', 'bmi2', 'avx512f', 'avx512bw', 'avx512vl', 'avx512_vpopcntdq'];

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** @returns {{ cpu: string, family?: string, model?: string, simd: string[], caches: string, cores: number, node: string, date: string }} */
export function machine() {
  const info = read('/proc/cpuinfo') ?? '';
  const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1];
  const flags = new Set((field('flags') ?? '').split(/\s+/));
  const caches = [];
  for (let i = 0; i < 8; i++) {
    const dir = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    const level = read(`${dir}/level`)?.trim();
    if (!level) break;
    const type = read(`${dir}/type`)?.trim();
    if (type === 'Instruction') continue;
    caches.push(`L${level}${type === 'Data' ? 'd' : ''} ${read(`${dir}/size`)?.trim()}`);
  }
  return {
    cpu: field('model name') ?? cpus()[0]?.model ?? 'unknown',
    family: field('cpu family'),
    model: field('model'),
    simd: SIMD_FLAGS.filter((f) => flags.has(f)),
    caches: caches.join(', '),
    cores: cpus().length,
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** One line for the top of a table. */
export function machineLine(m = machine()) {
  const id = m.family ? ` (family ${m.family}, model ${m.model})` : '';
  return `${m.cpu}${id}, ${m.cores} cores; SIMD: ${m.simd.join(' ') || 'none reported'}; caches per core: ${m.caches || 'unknown'}; Node ${m.node}; ${m.date.slice(0, 10)}`;
}
