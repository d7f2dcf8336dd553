import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { printTable } from './measure';

/** One row of issue 19's table: a figure, what it was measured against, its ratio, and the goal. */
export interface SummaryRow {
  figure: string;
  /** What was measured, with its unit. */
  value: string;
  /** What it is divided by: a baseline measured in the same run, or the goal itself. */
  against: string;
  ratio: number;
  /** The goal as a condition on the ratio. */
  goal: { atLeast: number } | { atMost: number };
}

const met = (row: SummaryRow) =>
  'atLeast' in row.goal ? row.ratio >= row.goal.atLeast : row.ratio <= row.goal.atMost;

const goalText = (row: SummaryRow) =>
  'atLeast' in row.goal ? `>= ${row.goal.atLeast}` : `<= ${row.goal.atMost}`;

/**
 * Hands rows to `npm run bench` when it started this benchmark (BENCH_SUMMARY_FILE, one JSON row per line), so one
 * table shows every figure; run alone, a benchmark prints its own rows.
 */
export function reportSummary(rows: readonly SummaryRow[]): void {
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) appendFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  else printSummary(rows);
}

export function readSummary(file: string): SummaryRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SummaryRow);
}

export function printSummary(rows: readonly SummaryRow[]): void {
  console.log('');
  printTable(
    ['figure', 'measured', 'against', 'ratio', 'goal', 'met'],
    rows.map((row) => [
      row.figure,
      row.value,
      row.against,
      row.ratio.toFixed(3),
      goalText(row),
      met(row) ? 'yes' : 'no',
    ]),
  );
}
