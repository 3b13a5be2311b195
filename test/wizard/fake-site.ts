// A fake web site on 127.0.0.1 for the wizard's tests: a gallery page, a login page that sets a
// cookie, and a JSON endpoint. Servers using it allow 127.0.0.1 (config fetchAllowPrivate).

export const LOGIN_PAGE = `<!doctype html><html><head><title>Sign in &amp; read</title></head>
<body><h1 class="page-title main">Members</h1>
<form id="login" action="/session" method="post">
  <input type="hidden" name="csrf" value="tok123">
  <input name="user" required> <input type="password" name="pass" required>
  <button type="submit" name="go" value="1">Sign in</button>
</form>
<form action="/search"><input name="q"></form>
</body></html>`

export const GALLERY_PAGE = `<html><head><title>Gallery 1</title>
<meta property="og:title" content="A Fine Book"></head>
<body><h1 id="gtitle">A Fine Book</h1><div class="tags"><a href="/tag/artist:someone">someone</a></div>
<a class="download" href="/files/1.zip">Download</a><!-- <a href="/hidden">no</a> -->
<script>var x = "<a href='/not-a-link'>"</script></body></html>`

export type FakeSite = {
  url: string
  host: string
  [Symbol.asyncDispose](): Promise<void>
}

export function startFakeSite(): FakeSite {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url)
      const html = (text: string, headers: Record<string, string> = {}) =>
        new Response(text, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } })
      if (pathname === '/login')
        return html(LOGIN_PAGE, { 'set-cookie': 'sid=abc; Path=/; HttpOnly; Domain=127.0.0.1' })
      if (pathname === '/gallery/1') return html(GALLERY_PAGE)
      if (pathname === '/api/book.json')
        return Response.json({ title: 'A Fine Book', tags: ['artist:someone', 'language:english'] })
      return new Response('not found', { status: 404 })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    host: '127.0.0.1',
    async [Symbol.asyncDispose]() {
      await server.stop(true)
    },
  }
}
