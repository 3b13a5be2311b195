// The sandbox's `html` global, through the real Node child process: selectors, text, entities,
// and markup that would break a naive reader (unclosed tags, raw text, attributes with '>').
import { afterAll, describe, expect, it } from 'bun:test'
import { createSandboxHost, PluginRunError } from '../../src/plugins/host.ts'

const host = createSandboxHost({
  async fetch() {
    throw new Error('no fetch in these tests')
  },
})
afterAll(() => host.close())

const run = async (body: string) => {
  const out = await host.run({
    source: `export function runScript() { ${body} }`,
    entry: 'runScript',
    ctx: { args: {}, oneshot: null },
  })
  return out.result
}

const PAGE = `<!doctype html><html><head><title>Gallery &amp; more</title>
<style>.x { color: red }</style><script>var a = "<div class='gl1t'>fake</div>";</script></head>
<body>
  <div id="main" class="gl1t big" data-n="1"><a href="/g/1/abc/?p=1&amp;x=2">First &#x27;one&#39;</a></div>
  <div class="gl1t"><a href='/g/2/def/' title="a > b">Second<br>line</a></div>
  <ul><li>one<li>two</ul>
  <p>para one<p>para <b>two</b>
  <table><tr><td class="tc">artist:</td><td><a class="tag" id="ta_artist:foo">foo</a></td></tr></table>
  <img src="/c.jpg" alt="cover"/>
</body></html>`

describe('html global', () => {
  it('selects by tag, id, class, attribute and combinators, in document order', async () => {
    const result = await run(`
      const page = ${JSON.stringify(PAGE)}
      const links = html.select(page, 'div.gl1t > a')
      return {
        hrefs: links.map((a) => a.attr('href')),
        texts: links.map((a) => a.text),
        title: links[1].attrs.title,
        byId: html.selectOne(page, '#main').attrs['data-n'],
        attrOps: [
          html.select(page, 'a[href^="/g/"]').length,
          html.select(page, 'a[href$="/"]').length,
          html.select(page, '[id*="artist"]').length,
          html.select(page, 'div[class~=big]').length,
          html.select(page, 'a[title]').length,
        ],
        list: html.select(page, 'ul li').map((li) => li.text),
        paras: html.select(page, 'p').map((p) => p.text),
        comma: html.select(page, 'img, td.tc').map((e) => e.tag),
        nested: html.selectOne(page, 'table').select('td a.tag').map((a) => a.text),
        inner: html.selectOne(page, 'td.tc').html,
        none: html.selectOne(page, 'section'),
        fakeInScript: html.select(page, 'div.gl1t').length,
      }`)
    expect(result).toEqual({
      hrefs: ['/g/1/abc/?p=1&x=2', '/g/2/def/'],
      texts: ["First 'one'", 'Second line'],
      title: 'a > b',
      byId: '1',
      attrOps: [2, 1, 1, 1, 1],
      list: ['one', 'two'],
      paras: ['para one', 'para two'],
      comma: ['td', 'img'],
      nested: ['foo'],
      inner: 'artist:',
      none: null,
      fakeInScript: 2,
    })
  })

  it('gives the visible text without scripts or styles, entities decoded', async () => {
    const result = await run(`return {
      text: html.text(${JSON.stringify(PAGE)}).slice(0, 40),
      decoded: html.decode('a &lt;b&gt; &quot;c&quot; &hellip; &#169; &unknown; &#0;'),
    }`)
    expect(result).toEqual({
      text: "Gallery & more First 'one' Second line o",
      decoded: 'a <b> "c" … © &unknown; \ufffd',
    })
  })

  it('refuses a selector it does not support with a clear error', async () => {
    const failed = await run(`html.select('<a></a>', 'a:hover')`).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(PluginRunError)
    expect((failed as Error).message).toContain('html: unsupported selector: a:hover')
  })
})
