import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWebApp } from '../../infra/local/web';

const rootDir = path.resolve(import.meta.dirname, '../..');

/** One entry of Vite's `.vite/manifest.json`, keyed by source path relative to `frontend/` (or `_name.js`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** A production build of the web app into `outDir`, with the manifest the checks read. */
export const buildWeb = (outDir: string): Promise<void> => buildWebApp({ rootDir, outDir, manifest: true });

export const readManifest = (outDir: string): Manifest =>
  JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;

const isScript = (file: string) => /\.m?js$/.test(file);

/**
 * The script files a set of source modules costs: each module's chunk and every chunk it imports statically,
 * plus the scripts the chunks carry as assets (MapLibre's worker). A module without a manifest entry of its own
 * is bundled into a chunk that imports it, so it adds nothing here.
 */
export const scriptsOf = (manifest: Manifest, modules: readonly string[]): Set<string> => {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const asset of chunk.assets ?? []) if (isScript(asset)) files.add(asset);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return files;
};

/** Gzipped size of built files in bytes (zlib's default level, close to what CloudFront sends). */
export const gzipBytes = (outDir: string, files: Iterable<string>): number => {
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(path.join(outDir, file))).length;
  return total;
};

/** kB as Vite's build report prints them (1,000 bytes), the unit of issue 13's figures. */
export const kb = (bytes: number): number => Math.round(bytes / 100) / 10;
