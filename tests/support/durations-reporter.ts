import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * Writes each Vitest test's duration and its time limit to .tmp/reports/vitest-durations.json, for
 * `npm run test:slowest` (issue 29: every test's quiet duration at most a third of its limit).
 * Vitest's own JSON report has the durations but not the limits a test sets for itself.
 */
export default class DurationsReporter implements Reporter {
  private defaultLimitMs = 5_000;

  private readonly outputFile: string;

  constructor(options: { outputFile?: string } = {}) {
    this.outputFile = options.outputFile ?? ".tmp/reports/vitest-durations.json";
  }

  onInit(vitest: Vitest) {
    this.defaultLimitMs = vitest.config.testTimeout;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const tests = testModules.flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const duration = test.diagnostic()?.duration;
        if (duration === undefined || test.result().state === "skipped") return [];
        return [
          {
            file: path.relative(process.cwd(), module.moduleId),
            name: test.fullName,
            durationMs: Math.round(duration),
            limitMs: test.options.timeout ?? this.defaultLimitMs,
          },
        ];
      }),
    );
    fs.mkdirSync(path.dirname(this.outputFile), { recursive: true });
    fs.writeFileSync(this.outputFile, `${JSON.stringify({ generatedAt: new Date().toISOString(), tests }, null, 2)}\n`);
  }
}
