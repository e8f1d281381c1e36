// Worker-thread entry (compiled to out/electron/core/formats/parse-worker.js): parses memory files for worker-pool.ts.
import { parentPort } from 'node:worker_threads';
import { handleParseRequest, type ParseRequest } from './worker-protocol';

parentPort?.on('message', (request: ParseRequest) => {
  void handleParseRequest(request).then((reply) => parentPort?.postMessage(reply));
});
