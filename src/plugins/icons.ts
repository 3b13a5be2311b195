// The icon a plugin is listed with: PluginInfo.icon is a base64 image as a data URI. A plugin that
// brings none, or brings anything else (a remote URL would have every client that lists plugins
// fetch it), is listed with its type's icon: 20x20 PNGs drawn for Tankobun (a tag, a down arrow, a
// key, code brackets).
import type { PluginType } from './manifest.ts'

const png = (base64: string) => `data:image/png;base64,${base64}`

export const TYPE_ICONS: Record<PluginType, string> = {
  metadata: png(
    'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAMAAAC6V+0/AAAAflBMVEU7fdc5fNk7fddFc9A4ceI7fdc7fNdMaXE6fdc8fNg6fNg7fdgzf8w6fdg6f9k5fNo8f9g6ftg7fNk7fdhCgtn////P3/bL3fXL3PVEg9rr8vvl7vpDg9q+1PLA1fJjmOC60fG70vJhluC50fHx9vzu9Py70vFkmOD9/f+0zfAYyUndAAAAE3RSTlOAWOQLCXxaAIh32dgK2jAxLlcvPmgV+AAAAAlwSFlzAAALEwAACxMBAJqcGAAAAJ9JREFUGNNd0O0WgjAIBmDUOcosK7ZWlql9d/83mFNw5vuL85wdGABirpeT6AQRcL+mv8QFQj4zokyBJvqe+7SGNYKUqPx4e1rHmgJ0WPrSHO3h1CMwvps6qODLNuGtYH2/hQ4DPmSucfbK2I5zJzhO8MWFUZSNcVAxQd/MOWkNfk3WyZpaflNV4SBJPD/dSgFuspltu8ujimAxBnYK8QdMCBvJq3C0ZQAAAABJRU5ErkJggg==',
  ),
  download: png(
    'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAMAAAC6V+0/AAAAXVBMVEUtnVsunFktnFszmWYtnFotm1o4qlUtnFpMaXEunVsuolwtnFounVotnVounFgrnVwsm1gvn1ounlounVvq9e7j8un6/ftsuoyv2cBZsX1YsXzd7+Rruov5/Pr///8KVWm6AAAAE3RSTlOAWNoKfFoJdwCIC+TY2TEvLjBXi8PyBgAAAAlwSFlzAAALEwAACxMBAJqcGAAAAI1JREFUGNOVkNkWwiAMRAdbMLbWDUyg2/9/plSlUvrkPE1ucrKBqNLHTLohAl0PdqP2QqgKZm1noJP3PjmFOlnnkquBPcS/sA8fGPoMDiwLFB4yODKLc8I85j1jPE0xsx0kPM9flk2XVLdZKYTfSsuZ/rnKv8/Ue6jQtOXrzgZ07wp2i58no3BahYchegFGdRpEo+ALNgAAAABJRU5ErkJggg==',
  ),
  login: png(
    'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAMAAAC6V+0/AAAAbFBMVEXJhSvHhSvJhirIhirGjTjJhSrJhSvJhypMaXHIhSvIhSvQiy7JhivMfzPJhCrIhyvKhynKhivHhSzJhiv////LijLMjTf47+P58+n05tT+/Prmx57q0K737eDq0Kzmx53+/Pn+/v3//v3MjDaybALoAAAAE3RSTlOAWOTYCVp8dwCI2QvaCjAvMVcuOFrSiwAAAAlwSFlzAAALEwAACxMBAJqcGAAAAJBJREFUGNNt0GETgiAMgOFpYEszqwEJqEj9//+YdIcX4PvxueM2Bog9P//FO0TA4UpJ9R2hz4yoZcCpqIKmxAagRPihslpblaKahTFiVglasUi5CJugXiWRfK+v0BTRRPTej+lzRzRupYM+AadpX8lp7cLwQBGL5Q+/eXiQrs7txABvbWbP7fLIKrjswYMhfgFG7BsrhdixjwAAAABJRU5ErkJggg==',
  ),
  script: png(
    'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAMAAAC6V+0/AAAAflBMVEV5W8d5Wcd5WsdzXNBxVcZ5WsZ5Wsd6WsdMaXF5W8Z/Zsx5W8Z6WsZ5Wsd3XMh7Wsd6WsR5WMd3WMV6W8f///+VfNLp4/afiNb8/P749vyTedG9ruN7XMfOw+qxn97w7Pmtmt2IbM3x7vnm4fWKbs6BZMrp5PbVy+2CZcvVzO0+DyriAAAAE3RSTlOAWNgLCVp8dwCICtrZ5C9XMC4x7UvGcwAAAAlwSFlzAAALEwAACxMBAJqcGAAAAIxJREFUGNN90NkSgjAMBdCLtBgR3BJ2cF///wcV6tp2vC+dnJm2SUAU6/FXdEgEmk35J+mKEFvGnChodhIgcjEChrPIM+YsL4YCBuuq7LGs6g/uNrLuq63sjy88HaQxrzVyvj7xIl1rsO3k9g+9170f+VtymveO6V1ImNo2UqBFYtnysXlSASbvYK6I7rjEG6RuOpW9AAAAAElFTkSuQmCC',
  ),
}

/** An image as a base64 data URI, as a browser shows it in an img element. */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/

/** The plugin's own icon when it is an image data URI, else its type's. */
export function pluginIcon(icon: string | null | undefined, type: PluginType): string {
  return icon && DATA_IMAGE.test(icon) ? icon : TYPE_ICONS[type]
}
