/**
 * The footer's height as the frame budgets it (wrappedLines) against what Ink renders: the same
 * wrap, measured in terminal cells, so wide characters and combining marks wrap as they show.
 */
import { Box, renderToString, Text } from 'ink';
import { describe, expect, it } from 'vitest';
import type { Ui } from '../context.js';
import { UiProvider } from '../context.js';
import type { Action } from '../keymap.js';
import { themeFor } from '../theme.js';
import { Footer, footerLine, wrappedLines } from './layout.js';

/** What Ink prints for `text` in a `<Text wrap="wrap">` `width` columns wide, line by line. */
function inkLines(text: string, width: number): string[] {
  const out = renderToString(
    <Box width={width}>
      <Text wrap="wrap">{text}</Text>
    </Box>,
    { columns: width },
  );
  return out.split('\n');
}

/** The footer as the app renders it, in a terminal `width` columns wide. */
function footerLines(
  actions: Action[],
  wording: Partial<Record<Action, string>>,
  width: number,
): string[] {
  // the footer reads the theme alone
  const ui = { theme: { ...themeFor({ NO_COLOR: '1' }), animate: false } } as Ui;
  const out = renderToString(
    <UiProvider value={ui}>
      <Box width={width}>
        <Footer actions={actions} wording={wording} />
      </Box>
    </UiProvider>,
    { columns: width },
  );
  return out.split('\n');
}

describe('wrappedLines counts terminal cells, as Ink wraps', () => {
  it('a wide character takes two columns', () => {
    // 6 code points, 12 cells: two lines at 8 columns (code points would say one)
    expect(wrappedLines('漢字漢字漢字', 8)).toBe(2);
    expect(inkLines('漢字漢字漢字', 8)).toHaveLength(2);
    // 5 emoji, 10 cells
    expect(wrappedLines('💰💰💰💰💰', 6)).toBe(2);
    expect(inkLines('💰💰💰💰💰', 6)).toHaveLength(2);
  });

  it('a combining mark takes none', () => {
    // "é" written as e + U+0301, eight times: 16 code points, 8 cells: one line at 8 columns
    const text = 'e\u0301'.repeat(8);
    expect(wrappedLines(text, 8)).toBe(1);
    expect(inkLines(text, 8)).toHaveLength(1);
  });

  it.each([80, 60, 40, 30, 20, 12])('matches Ink line for line at %i columns', (width) => {
    const text = footerLine(['nextField', 'submit', 'back', 'showAddress'], {
      submit: '確認する',
      back: '戻る 🔙',
      showAddress: 'アドレス全体を表示',
    });
    expect(wrappedLines(text, width)).toBe(inkLines(text, width).length);
  });
});

describe('the footer with wide labels', () => {
  const actions: Action[] = ['nextField', 'submit', 'back', 'showAddress', 'quit'];
  const wording: Partial<Record<Action, string>> = {
    submit: '見積もりを確認',
    back: '戻る',
    showAddress: 'アドレス全体 📋',
    quit: '終了',
  };

  it.each([80, 40, 24, 16])(
    'keeps every key and Ctrl+C on screen at %i columns, in the lines the frame budgets',
    (width) => {
      const lines = footerLines(actions, wording, width);
      expect(lines).toHaveLength(wrappedLines(footerLine(actions, wording), width));
      const shown = lines.join(' ').replace(/\s+/g, ' ');
      for (const part of [
        'Tab',
        '見積もりを確認',
        'Esc',
        '戻る',
        'a',
        'アドレス全体',
        '📋',
        'q',
        '終了',
      ])
        expect(shown).toContain(part);
      expect(shown).toContain('Ctrl+C quit');
    },
  );
});
