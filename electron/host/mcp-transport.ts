// The MCP server's stdio: every message masked by the secret engine, and the requests read counted so a client that
// closes stdin right after asking still gets every answer before the server ends.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { maskSecretsDeep } from '../core/service/use-cases/output';

export class HostStdioTransport extends StdioServerTransport {
  private readonly unanswered = new Set<string | number>();
  private readonly methods = new Map<string | number, string>();
  private idle: (() => void) | null = null;
  /** Called once, when the first `tools/list` or `resources/list` answer has gone out. */
  onListed: (() => void) | null = null;

  /** Called once the server is connected (connect() sets `onmessage`): each request read is counted until answered. */
  countRequests(): void {
    const deliver = this.onmessage;
    this.onmessage = (message) => {
      if (isJSONRPCRequest(message)) {
        this.unanswered.add(message.id);
        this.methods.set(message.id, message.method);
      }
      deliver?.(message);
    };
  }

  /** No secret in a memory file, an error or an echoed argument reaches the client in clear. */
  override async send(message: JSONRPCMessage): Promise<void> {
    await super.send(maskSecretsDeep(message));
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) {
        this.unanswered.delete(message.id);
        const method = this.methods.get(message.id);
        this.methods.delete(message.id);
        if (method === 'tools/list' || method === 'resources/list') this.listed();
      }
      if (this.unanswered.size === 0) this.idle?.();
    }
  }

  private listed(): void {
    const listed = this.onListed;
    this.onListed = null;
    listed?.();
  }

  /** Resolves when every request read so far has been answered, or after `deadlineMs` (a tool stuck on a lock). */
  answered(deadlineMs: number): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(finish, deadlineMs);
      timer.unref();
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.idle = finish;
    });
  }
}
