// The baseline of the SDK benchmark: a bare Koa app answering a small JSON body, nothing else.
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { ok: true, app_id: 'app_baseline', campaigns: [] };
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
