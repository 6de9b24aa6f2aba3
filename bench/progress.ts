/**
 * A progress bar on stderr. On a terminal it redraws one line; elsewhere (CI logs) it prints a line
 * at every tenth, so logs stay short.
 */
export type Progress = { tick(done: number): void; done(note?: string): void };

const WIDTH = 30;

export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  let lastTenth = -1;
  const line = (done: number) => {
    const fraction = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(fraction * WIDTH);
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    return `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.round(fraction * 100)}% `
      + `${done}/${total} ${rate}/s ${seconds.toFixed(1)}s`;
  };
  return {
    tick(done) {
      if (stream.isTTY) {
        stream.write(`\r${line(done)}`);
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`${line(done)}\n`);
      }
    },
    done(note) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      stream.write(`${stream.isTTY ? '\r' : ''}${label}: ${total} in ${seconds}s${note ? ` (${note})` : ''}${' '.repeat(20)}\n`);
    },
  };
}
