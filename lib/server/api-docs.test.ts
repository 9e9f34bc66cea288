import fs from 'node:fs';
import path from 'node:path';
import { apiAnswersMarkdown } from './api-docs';

describe('docs/api-answers.md', () => {
  it('documents every answer as the output schemas describe it (run npm run docs:api after changing a schema)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'api-answers.md'), 'utf8');
    expect(committed).toBe(apiAnswersMarkdown());
  });
});
