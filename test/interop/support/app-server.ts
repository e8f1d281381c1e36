// A minimal JSON-RPC client for `codex app-server` (newline-delimited JSON over stdio), for Codex's own import.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { codexBinary, type CodexHome } from './codex';

interface RpcMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface MigrationItem {
  itemType: string;
  description: string;
  cwd: string | null;
  details: { memory?: string[] } | null;
}

export class AppServer {
  private buffer = '';
  private nextId = 0;
  private readonly pending = new Map<number, (message: RpcMessage) => void>();
  private readonly notifications: RpcMessage[] = [];
  private readonly waiters: Array<{ method: string; resolve: (message: RpcMessage) => void }> = [];
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** `codex app-server` for a home, initialised (its Claude import looks in `$HOME/.claude`). */
  static async start(home: CodexHome): Promise<AppServer> {
    const child = spawn(codexBinary(), ['app-server'], { cwd: home.work, env: home.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const server = new AppServer(child);
    await server.call('initialize', {
      clientInfo: { name: 'memory-studio-interop', version: '0' },
      capabilities: { experimentalApi: true },
    });
    server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
    return server;
  }

  private onData(text: string): void {
    this.buffer += text;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (!line) continue;
      const message = JSON.parse(line) as RpcMessage;
      if (message.id !== undefined && this.pending.has(message.id)) {
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      } else if (message.method) {
        const waiter = this.waiters.findIndex((w) => w.method === message.method);
        if (waiter >= 0) this.waiters.splice(waiter, 1)[0]?.resolve(message);
        else this.notifications.push(message);
      }
    }
  }

  call<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`app-server ${method} did not answer within 60 s:\n${this.stderr.slice(-2000)}`)),
        60_000,
      );
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`app-server ${method}: ${message.error.message}`));
        else resolve(message.result as T);
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** The next notification named `method` (one already received counts). */
  notification(method: string): Promise<RpcMessage> {
    const seen = this.notifications.findIndex((n) => n.method === method);
    if (seen >= 0) return Promise.resolve(this.notifications.splice(seen, 1)[0] as RpcMessage);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${method} notification within 60 s`)), 60_000);
      this.waiters.push({ method, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** The MEMORY item Codex's detection offers (projects whose import differs from the source), or null. */
  async detectClaudeMemory(): Promise<MigrationItem | null> {
    const detected = await this.call<{ items: MigrationItem[] }>('externalAgentConfig/detect', { includeHome: true });
    return detected.items.find((i) => i.itemType === 'MEMORY') ?? null;
  }

  /** Codex's own Claude Code memory import of these project keys (as its UI sends it); resolves when it completed. */
  async importClaudeMemory(keys: string[]): Promise<void> {
    const item: MigrationItem = { itemType: 'MEMORY', description: 'Import memory', cwd: null, details: { memory: keys } };
    await this.call('externalAgentConfig/import', { migrationItems: [item] });
    await this.notification('externalAgentConfig/import/completed');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    this.child.kill('SIGTERM');
    await exited;
  }
}
