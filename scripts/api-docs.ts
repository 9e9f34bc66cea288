/** Writes docs/api-answers.md from the registry's output schemas (lib/server/api-docs.ts). Commit the output. */
import fs from 'node:fs';
import path from 'node:path';
import { apiAnswersMarkdown } from '../lib/server/api-docs';
import { registry } from '../lib/server/registry';

fs.writeFileSync(path.join(__dirname, '..', 'docs', 'api-answers.md'), apiAnswersMarkdown());
console.log(`docs/api-answers.md: ${Object.keys(registry).length} calls`);
