/**
 * Whether this browser can give MapLibre a WebGL 2 context (MapLibre GL 6 needs WebGL 2). Headless Chromium
 * with `--disable-gpu`, remote desktops and some locked-down machines cannot; the map then shows its plain
 * fallback instead of a blank box. Asked once per page load.
 */
let cached: boolean | undefined;

export const hasWebGl2 = (): boolean => {
  if (cached !== undefined) return cached;
  try {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('webgl2');
    cached = !!context;
    // Frees the probe's context at once: browsers cap how many live contexts a page may hold.
    context?.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    cached = false;
  }
  return cached;
};
