import { fileURLToPath } from "node:url";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
      "tests/unit/**/*.test.{ts,tsx}",
      "tests/support/**/*.test.ts",
      "eslint-rules/**/*.test.ts",
    ],
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    // The portal reads its configuration from process.env: keep tests off ./data.
    env: {
      NODE_ENV: "test",
      DATA_DIR: ".tmp/vitest/data",
      SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
      LOG_LEVEL: "silent",
      SEED_DEMO_DATA: "false",
      SANDBOX_GATEWAY_DELAY_MS: "0",
    },
    // Each test's duration and limit, for `npm run test:slowest` (docs/testing.md).
    reporters: ["default", "./tests/support/durations-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are large (hundreds of MB each); two workers fit two cores.
    maxWorkers: 2,
  },
});
