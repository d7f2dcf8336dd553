import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buttonClasses } from '@/components/ui/button';
import { darkHighlightStyle, editorPalette } from '@/features/files/editor/dark-highlight';

const css = readFileSync(join(import.meta.dirname, 'index.css'), 'utf8');

/** The theme's colour tokens, `--color-ink-500: #808ca3` → { 'ink-500': '#808ca3' }. */
const tokens = Object.fromEntries(
  Array.from(css.matchAll(/--color-([a-z]+-\d+):\s*(#[0-9a-f]{6});/gi), (match) => [match[1], match[2]]),
) as Record<string, string>;
const token = (name: string) => {
  const value = tokens[name];
  if (!value) throw new Error(`no --color-${name} in index.css`);
  return value;
};

const channels = (hex: string) =>
  [1, 3, 5, 7].map((at) => Number.parseInt(hex.slice(at, at + 2) || 'ff', 16));
/** `over` with `top` (#rrggbbaa) laid on it, as one opaque colour. */
const blend = (top: string, over: string) => {
  const [r, g, b, a = 255] = channels(top);
  const [br, bg, bb] = channels(over);
  const mix = (x = 0, y = 0) => Math.round(x * (a / 255) + y * (1 - a / 255));
  return `#${[mix(r, br), mix(g, bg), mix(b, bb)].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
};
/** WCAG 2.1 contrast ratio of two opaque colours. */
const contrast = (a: string, b: string) => {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, b = 0] = channels(hex)
      .slice(0, 3)
      .map((c) => c / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

const AA = 4.5;
const surfaces = ['ink-950', 'ink-900', 'ink-850', 'ink-800'];

describe('colour contrast of the one theme (WCAG 2.1 AA, 4.5:1 for text)', () => {
  it.each(['ink-400', 'ink-500'])('%s, the dim greys, is readable on every dark surface', (grey) => {
    for (const surface of surfaces) {
      expect(contrast(token(grey), token(surface)), `${grey} on ${surface}`).toBeGreaterThanOrEqual(AA);
    }
    expect(contrast(token('ink-400'), token('ink-700')), 'ink-400 on ink-700').toBeGreaterThanOrEqual(AA);
  });

  it('white on the primary button, at rest, hovered and pressed', () => {
    const shades = Array.from(
      buttonClasses('primary').matchAll(/(?:^|\s)(?:hover:|active:)?bg-(brand-\d+)(?=\s|$)/g),
      (match) => match[1] as string,
    );
    expect(shades.length).toBe(3);
    for (const shade of shades) {
      expect(contrast('#ffffff', token(shade)), `white on ${shade}`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('the code editor: line numbers, comments and every token colour', () => {
    const { background, activeLine, activeLineGutter, gutter } = editorPalette;
    const lineBackgrounds = [background, blend(activeLine, background)];
    for (const bg of [background, activeLineGutter]) {
      expect(contrast(gutter, bg), `line numbers on ${bg}`).toBeGreaterThanOrEqual(AA);
    }
    const colours = darkHighlightStyle.specs.flatMap((spec) => (spec.color ? [String(spec.color)] : []));
    expect(colours.length).toBeGreaterThan(10);
    for (const colour of colours) {
      for (const bg of lineBackgrounds) {
        expect(contrast(colour, bg), `${colour} on ${bg}`).toBeGreaterThanOrEqual(AA);
      }
    }
  });
});
