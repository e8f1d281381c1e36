// The optional model help against a real local server speaking streaming chat completions: explain, and merge.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/doctor';
import { defaultEngineSettings, saveEngineSettings } from '../../../electron/core/consolidate/engine-settings';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { createDoctorHome, type DoctorHome } from '../../fixtures/doctor-home';
import { makeTempDir } from '../helpers';

let temp: { dir: string; cleanup: () => Promise<void> };
let home: DoctorHome;
let service: StudioService;
let server: Server;
let answers: string[];
let requests: { messages: { role: string; content: string }[]; auth: string | undefined }[];

const MERGED = `# Task Group: webapp German copy

scope: German product copy in webapp
applies_to: cwd=WEBAPP; reuse_rule=safe while locales live in locales/*.json

## Task 1: translate the checkout and account pages into German, success

### keywords

- i18n, de.json, Sie form, sorted keys

## User preferences

- German copy must use the formal "Sie" form, never "du"
`;

function sse(text: string): string {
  const chunks = [
    { choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

beforeEach(async () => {
  temp = await makeTempDir();
  home = await createDoctorHome(temp.dir);
  answers = [];
  requests = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      requests.push({
        messages: (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages,
        auth: req.headers.authorization,
      });
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(sse(answers.shift() ?? 'no answer prepared'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dataDir = join(temp.dir, 'data');
  const settings = defaultEngineSettings();
  await saveEngineSettings(dataDir, {
    ...settings,
    engine: 'openai',
    openai: {
      ...settings.openai,
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      model: 'fake-merger',
      maxRetries: 0,
    },
  });
  service = createStudioService({
    home: { codexHome: home.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    env: { ...process.env, OPENAI_API_KEY: 'sk-test-key-for-the-fake-server-0001' },
  });
});

afterEach(async () => {
  service.dispose();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await temp.cleanup();
});

async function i18nCluster(): Promise<Finding> {
  const report = await service.call('doctor.run', { version: 'v1' });
  return report.findings.find((f) => f.kind === 'duplicate' && f.title.includes('webapp i18n copy')) as Finding;
}

describe('model help', () => {
  it('explains a finding from the entries it names, and changes nothing', async () => {
    const finding = await i18nCluster();
    answers.push('Both blocks record the same German copy rules; merge them and keep the Thursday review note.');
    const explained = await service.call('doctor.explain', { version: 'v1', findingId: finding.id });
    expect(explained).toEqual({
      findingId: finding.id,
      model: 'fake-merger',
      text: 'Both blocks record the same German copy rules; merge them and keep the Thursday review note.',
    });
    const user = requests[0]?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain('webapp German translations');
    expect(user).toContain('the translation team reviews de.json pull requests on Thursdays');
    expect(requests[0]?.auth).toBe('Bearer sk-test-key-for-the-fake-server-0001');
    expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe(home.memory);
  });

  it("merges a cluster with the model's block as a proposal, and refuses an answer that is not one block", async () => {
    const finding = await i18nCluster();
    answers.push(`\`\`\`markdown\n${MERGED.replace('WEBAPP', home.webapp)}\`\`\``);
    const proposal = await service.call('doctor.modelMerge', { version: 'v1', findingId: finding.id });
    expect(proposal.title).toContain('with fake-merger');
    const text = (await service.call('review.fileTexts', { id: proposal.id, ord: proposal.files[0]?.ord ?? 0 })).proposedContent ?? '';
    expect(text).toContain('# Task Group: webapp German copy');
    expect(text).not.toContain('# Task Group: webapp i18n copy');
    expect(text).not.toContain('# Task Group: webapp German translations');
    expect(text).toContain('# Task Group: data-pipeline scheduling');
    answers.push(`${MERGED}\n# Task Group: a second block\n\nscope: x\napplies_to: cwd=/x; reuse_rule=x\n`);
    await expect(service.call('doctor.modelMerge', { version: 'v1', findingId: finding.id })).rejects.toThrow(
      /is not one task group \(it has 2 entries\); nothing was proposed/,
    );
    expect((await service.call('review.list', {})).proposals).toHaveLength(1);
  });

  it('says how to configure the engine when there is no API key', async () => {
    const finding = await i18nCluster();
    const bare = createStudioService({
      home: { codexHome: home.codexHome, source: 'flag' },
      dataDir: join(temp.dir, 'data'),
      host: 'serve',
      appVersion: 'test',
      watch: false,
      log: () => undefined,
      env: {},
    });
    try {
      await expect(bare.call('doctor.explain', { findingId: finding.id })).rejects.toThrow(
        /No API key for the openai engine: OPENAI_API_KEY is not set/,
      );
    } finally {
      bare.dispose();
    }
  });
});
