// The few WebGPU interfaces the engine uses, declared here so the package's
// declarations need neither the DOM library nor @webgpu/types: users compile
// with lib ES2022 alone. Shapes follow the WebGPU specification.

export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GpuAdapterLike | null>;
}

export interface GpuAdapterLike {
  readonly limits: { readonly maxStorageBufferBindingSize: number; readonly maxComputeWorkgroupsPerDimension: number };
  requestDevice(): Promise<GpuDeviceLike>;
}

export interface GpuBufferLike {
  mapAsync(mode: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

interface GpuBindGroupLayoutLike {
  readonly __brand?: 'GPUBindGroupLayout';
}

interface GpuBindGroupLike {
  readonly __brand?: 'GPUBindGroup';
}

export interface GpuPipelineLike {
  getBindGroupLayout(index: number): GpuBindGroupLayoutLike;
}

interface GpuShaderModuleLike {
  getCompilationInfo?(): Promise<{ readonly messages: readonly { readonly type: string; readonly message: string }[] }>;
}

interface GpuComputePassLike {
  setPipeline(pipeline: GpuPipelineLike): void;
  setBindGroup(index: number, group: GpuBindGroupLike): void;
  dispatchWorkgroups(x: number): void;
  end(): void;
}

interface GpuCommandBufferLike {
  readonly __brand?: 'GPUCommandBuffer';
}

interface GpuCommandEncoderLike {
  beginComputePass(): GpuComputePassLike;
  copyBufferToBuffer(
    source: GpuBufferLike,
    sourceOffset: number,
    destination: GpuBufferLike,
    destinationOffset: number,
    size: number,
  ): void;
  finish(): GpuCommandBufferLike;
}

export interface GpuDeviceLike {
  readonly queue: {
    writeBuffer(buffer: GpuBufferLike, offset: number, data: ArrayBufferView): void;
    submit(commands: readonly GpuCommandBufferLike[]): void;
    /** Settles once the work submitted so far has ended on the GPU. */
    onSubmittedWorkDone(): Promise<unknown>;
  };
  readonly lost: Promise<{ readonly reason?: string; readonly message: string }>;
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope(): Promise<{ readonly message: string } | null>;
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean }): GpuBufferLike;
  createShaderModule(descriptor: { code: string }): GpuShaderModuleLike;
  createComputePipelineAsync(descriptor: {
    layout: 'auto';
    compute: { module: GpuShaderModuleLike; entryPoint: string };
  }): Promise<GpuPipelineLike>;
  createBindGroup(descriptor: {
    layout: GpuBindGroupLayoutLike;
    entries: readonly { binding: number; resource: { buffer: GpuBufferLike } }[];
  }): GpuBindGroupLike;
  createCommandEncoder(): GpuCommandEncoderLike;
  destroy(): void;
}

/** GPUBufferUsage flags (numbers from the specification; the global may be missing in Node). */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

/** GPUMapMode.READ. */
export const MAP_READ = 0x0001;
