// Shared by the browser tests: finds Chromium, launches it headless, and
// serves Vite apps (production builds through `vite preview`, or a dev server)
// and plain static folders.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build, createServer, preview, type InlineConfig } from 'vite';

export const CHROMIUM = process.env.NQUEENS_CHROMIUM || '/usr/bin/chromium';
/** CI sets this: there, a missing browser fails the run instead of skipping it. */
export const REQUIRED = process.env.NQUEENS_REQUIRE_BROWSER === '1';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export const MISSING_MESSAGE =
  `No Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or point ` +
  `NQUEENS_CHROMIUM at one. NQUEENS_REQUIRE_BROWSER=1 turns this into a failure.`;

if (!HAVE_CHROMIUM && !REQUIRED) console.warn(`Skipping the browser tests. ${MISSING_MESSAGE}`);

/** Flags that give headless Chromium WebGPU on the SwiftShader software adapter (no GPU needed). */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'];

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Playwright gives each launch a fresh temporary profile (user-data-dir).
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** Collects uncaught errors and console errors, which should fail a test. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()} (${m.location().url})`);
  });
  return errors;
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

const quiet: InlineConfig = { logLevel: 'warn', clearScreen: false };

/** `vite build` into a temporary directory, then `vite preview` on a free localhost port. */
export async function buildAndPreview(config: InlineConfig): Promise<Served> {
  const outDir = mkdtempSync(join(tmpdir(), 'nqueens-vite-'));
  try {
    await build({ ...quiet, ...config, build: { ...config.build, outDir, emptyOutDir: true } });
    const server = await preview({
      ...quiet,
      ...config,
      build: { outDir },
      preview: { ...config.preview, host: '127.0.0.1', port: 0 },
    });
    return {
      url: server.resolvedUrls!.local[0],
      async close() {
        await server.close();
        // Removed as the process ends: a request the server took before closing may still open a file, and its
        // ENOENT was an uncaught exception that failed the run (seen once, under load).
        process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
      },
    };
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
}

/** `vite` (the dev server), as in development. */
export async function devServer(config: InlineConfig): Promise<Served> {
  const server = await createServer({ ...quiet, ...config, server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false } });
  await server.listen();
  return { url: server.resolvedUrls!.local[0], close: () => server.close() };
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json' };

/**
 * A plain static file server for `root` on a free localhost port (what any web host does), sending `headers` with every
 * file, or those `headers` gives for the file's path.
 */
export async function serveStatic(
  root: string,
  headers: Record<string, string> | ((path: string) => Record<string, string>) = {},
): Promise<Served> {
  const server = createHttpServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, {
        ...(typeof headers === 'function' ? headers(path) : headers),
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

declare global {
  // The demo page puts the package here, for the console and for these tests.
  var nqueens: typeof import('../../dist/index.js');
}

/** A count's result with its bigints as strings, so it can leave the page. */
export interface PlainResult {
  n: number;
  total: string;
  unique: string;
  engine: string;
  threads: number;
  elapsedMs: number;
}

/**
 * Replaces the page's Worker with a subclass that records each worker's URL,
 * type, whether it was terminated and whether its 'init' handed it a shared
 * memory (the join's shared tables), in globalThis.workerLog.
 */
export const RECORD_WORKERS = `
  globalThis.workerLog = [];
  globalThis.Worker = class extends globalThis.Worker {
    constructor(url, options) {
      super(url, options);
      this.entry = { url: String(url), type: options && options.type, terminated: false };
      globalThis.workerLog.push(this.entry);
    }
    terminate() {
      this.entry.terminated = true;
      super.terminate();
    }
    postMessage(message, transfer) {
      if (message && message.type === 'init') this.entry.sharedMemory = !!(message.share && message.share.memory instanceof WebAssembly.Memory);
      return super.postMessage(message, transfer);
    }
  };
`;
export type WorkerLog = { url: string; type?: string; terminated: boolean; sharedMemory?: boolean }[];
