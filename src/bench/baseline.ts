import { fileURLToPath } from 'node:url';
import { freePort, startChild, waitForHttp, type StartedChild } from './processes.js';

export interface BaselineServer {
  url: string;
  bodyBytes: number;
  process: StartedChild;
  stop(): Promise<void>;
}

const HELLO_SERVER = fileURLToPath(new URL('./hello-server.js', import.meta.url));

/** Starts the bare `node:http` server in its own child process, pinned to `cpu` when given. */
export async function startBaselineServer(options: { bodyBytes: number; cpu: number | null }): Promise<BaselineServer> {
  const port = await freePort();
  const started = startChild(
    process.execPath,
    [HELLO_SERVER],
    { ...process.env, PORT: String(port), HOST: '127.0.0.1', BODY_BYTES: String(options.bodyBytes) },
    options.cpu,
  );
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForHttp(url, started, 15_000);
  } catch (error) {
    await started.stop();
    throw error;
  }
  return { url, bodyBytes: options.bodyBytes, process: started, stop: () => started.stop() };
}
