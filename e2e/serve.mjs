// A static server over dist/ (or --root DIR) for scripts/serve and scripts/test.
//   node e2e/serve.mjs [--root dist] [--host 127.0.0.1] [--port 8080]    (--port 0: any free port)
// Prints "serving ROOT at URL" as its first line, then serves until SIGINT/SIGTERM.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST_DIR, startServer } from './harness.mjs';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: DIST_DIR },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8080' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve: --port must be 0..65535, got ${values.port}`);
  process.exit(2);
}
try {
  const server = await startServer({ root: values.root, host: values.host, port });
  console.log(`serving ${resolve(values.root)} at ${server.url}`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`serve: ${err.message}`);
  process.exit(1);
}
