// Finding a WebGPU device: the browser's (or Deno's) navigator.gpu, else in
// Node the optional `webgpu` package (Dawn). Where there is none, the count
// fails with an Error that says so: the engine never falls back to the CPU.
import { codedError, ERROR_CODES } from '../../shared/errors.js';
import { isNode } from '../../contract/environment.js';
import type { GpuAdapterLike, GpuDeviceLike, GpuLike } from './webgpu-types.js';

/** The `webgpu` package's entry point, as far as it is used here. */
interface DawnNode {
  create(flags: string[]): GpuLike;
}

async function nodeGpu(): Promise<GpuLike | undefined> {
  const name = 'webgpu';
  try {
    // Hidden from bundlers, like the node:* imports: browser builds never run it.
    const dawn = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as DawnNode;
    return dawn.create([]);
  } catch {
    return undefined; // not installed, or no build for this platform
  }
}

function unavailable(why: string): Error {
  return codedError(
    `engine 'webgpu' is unavailable here: ${why}. Use engine 'wasm' or 'js' to count on the CPU.`,
    ERROR_CODES.WEBGPU_UNAVAILABLE,
  );
}

export async function requestGpuDevice(): Promise<{ adapter: GpuAdapterLike; device: GpuDeviceLike }> {
  const navigatorGpu = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
  const gpu = navigatorGpu ?? (isNode ? await nodeGpu() : undefined);
  if (!gpu) {
    throw unavailable(
      isNode
        ? "Node has no navigator.gpu, and the optional 'webgpu' package (Dawn) is not installed"
        : 'navigator.gpu is missing (WebGPU needs a browser that supports it, and a secure context: https or localhost)',
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw unavailable('WebGPU is present but gives no adapter (no usable GPU or driver, or WebGPU is blocked)');
  return { adapter, device: await adapter.requestDevice() };
}
