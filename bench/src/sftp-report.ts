import { median, printTable } from './measure';

/** One timed batch: an operation against one side in one round. */
export interface SftpSample {
  operation: string;
  side: string;
  seconds: number;
  serverCpuSeconds: number;
  clientCpuSeconds: number;
}

/** What an operation moves: its bytes and files, and which of the two rates leads. */
export interface SftpOperationSize {
  label: string;
  bytes: number;
  files: number;
  unit: 'MiB/s' | 'files/s';
}

const MiB = 1024 * 1024;

function rate(size: SftpOperationSize, seconds: number): number {
  return size.unit === 'MiB/s' ? size.bytes / MiB / seconds : size.files / seconds;
}

function formatRate(size: SftpOperationSize, seconds: number): string {
  const lead = `${rate(size, seconds).toFixed(1)} ${size.unit}`;
  return size.unit === 'files/s' ? `${lead} (${(size.bytes / MiB / seconds).toFixed(1)} MiB/s)` : lead;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/**
 * The table: each side's throughput (median over the rounds), Aerie's over OpenSSH's (1.000 = as fast, below =
 * slower), and the CPU seconds each server side and the client spent on the operation.
 */
export function printSftpTable(
  operations: SftpOperationSize[],
  samples: SftpSample[],
  sides: { aerie: string; openssh: string | undefined },
): void {
  const of = (operation: string, side: string | undefined) => {
    const mine = samples.filter((sample) => sample.operation === operation && sample.side === side);
    return {
      seconds: median(mine.map((sample) => sample.seconds)),
      server: median(mine.map((sample) => sample.serverCpuSeconds)),
      client: median(mine.map((sample) => sample.clientCpuSeconds)),
    };
  };
  const rows = operations.map((size) => {
    const aerie = of(size.label, sides.aerie);
    const openssh = of(size.label, sides.openssh);
    const hasBaseline = Number.isFinite(openssh.seconds);
    return [
      size.label,
      `${formatRate(size, aerie.seconds)}, ${aerie.seconds.toFixed(2)} s`,
      hasBaseline ? `${formatRate(size, openssh.seconds)}, ${openssh.seconds.toFixed(2)} s` : '–',
      hasBaseline ? (rate(size, aerie.seconds) / rate(size, openssh.seconds)).toFixed(3) : '–',
      `${fixed(aerie.server, 2)} / ${fixed(openssh.server, 2)} s`,
      hasBaseline ? fixed(aerie.server / openssh.server, 2) : '–',
      `${fixed(aerie.client, 2)} / ${fixed(openssh.client, 2)} s`,
    ];
  });
  printTable(
    [
      'operation',
      'Aerie',
      'OpenSSH',
      'ratio (speed)',
      'server CPU, Aerie / OpenSSH',
      'CPU ratio',
      'client CPU, Aerie / OpenSSH',
    ],
    rows,
  );
}
