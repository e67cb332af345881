// The package as it would be published: `npm pack` of the staged package
// (scripts/stage-package.mjs: the built tree's published files and a manifest
// without the development scripts; the caller has run `npm run build`), and a
// helper that unpacks the tarball where `npm install` would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stagePackage } from '../scripts/stage-package.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface PackedFile {
  path: string;
  size: number;
}

/** What `npm pack --dry-run` would put in the tarball. */
export function packList(): PackedFile[] {
  const staged = mkdtempSync(join(tmpdir(), 'nqueens-stage-'));
  try {
    const out = execFileSync('npm', ['pack', stagePackage(staged), '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return (JSON.parse(out) as { files: PackedFile[] }[])[0].files;
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

/** Packs the package into a new temporary directory; returns the tarball's path and a cleanup. */
export function packTarball(): { tarball: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'nqueens-pack-'));
  const staged = stagePackage(join(dir, 'package'));
  const out = execFileSync('npm', ['pack', staged, '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  return { tarball: join(dir, filename), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Unpacks a tarball as node_modules/nqueens-wasm under `project`, replacing what was there. */
export function unpackInto(tarball: string, project: string): string {
  const target = join(project, 'node_modules/nqueens-wasm');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  return target;
}

/** Packs and unpacks into `project` in one go (what installing a release does, less the lockfile). */
export function installPacked(project: string): string {
  const packed = packTarball();
  try {
    return unpackInto(packed.tarball, project);
  } finally {
    packed.dispose();
  }
}
