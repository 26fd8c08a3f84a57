// The baseline of the SDK benchmark: a bare Koa app answering a small JSON body, nothing else. A POST reads its
// body first (the work every JSON endpoint does before any of ours).
import Koa from 'koa';

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  ctx.body = { ok: true, app_id: 'app_baseline', campaigns: [] };
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
