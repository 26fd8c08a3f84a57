// The Android SDK as a Maven repository at `{base_url}/sdk/maven/` (`sdk` is a reserved slug, lib/slugs.ts): the
// files runtime/android-sdk/build.ts published under MAVEN_DIR (artifact metadata, POM, jar, sources jar and their
// md5/sha1/sha256/sha512), read-only and without credentials, as Gradle's `maven { url = ... }` fetches them.
// Nothing else on disk is reachable: the path must name a file of the published layout.
import { Router } from '@koa/router';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NotFoundError } from '../../errors/http-errors.js';
import { artifactPaths, CHECKSUMS, coordinates, MAVEN_DIR } from '../../runtime/android-sdk/layout.js';
import type { AppContext, RequestState } from '../context.js';

export const MAVEN_PREFIX = '/sdk/maven/';

const TYPES: Record<string, string> = {
  '.xml': 'text/xml; charset=utf-8',
  '.pom': 'text/xml; charset=utf-8',
  '.jar': 'application/java-archive',
};

/** The repository paths that exist: the four published files and a checksum file of each. */
function publishedPaths(): Set<string> {
  const files = Object.values(artifactPaths());
  return new Set([...files, ...files.flatMap((f) => Object.keys(CHECKSUMS).map((ext) => `${f}.${ext}`))]);
}

export function mavenRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  let known: Set<string> | null = null;

  router.get(`${MAVEN_PREFIX}{*path}`, (ctx) => {
    const rel = String(ctx.params.path ?? '');
    known ??= publishedPaths();
    if (!known.has(rel))
      throw new NotFoundError(`No ${rel || 'listing'} in this repository; it holds ${coordinates()} (${artifactPaths().pom}).`);
    const file = path.join(MAVEN_DIR, rel);
    if (!existsSync(file)) {
      throw new NotFoundError(
        `The Android SDK is not built on this server: run npm run build:sdk-android (npm test does it first; it needs a JDK and JUnit 4).`,
      );
    }
    const ext = path.extname(rel);
    ctx.type = TYPES[ext] ?? 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = readFileSync(file);
  });
  return router;
}
