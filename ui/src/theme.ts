// Light, dark or the system's choice, remembered in localStorage; applied as <html data-theme>.
import { effect, signal } from '@preact/signals'

export type Theme = 'system' | 'light' | 'dark'

const stored = localStorage.getItem('tankobun.theme')
export const theme = signal<Theme>(stored === 'light' || stored === 'dark' ? stored : 'system')

effect(() => {
  localStorage.setItem('tankobun.theme', theme.value)
  if (theme.value === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme.value
})
