// Entry point: loads the session (server info, login state), then renders the app.
import { render } from 'preact'
import './styles.css'
import { App } from './app.tsx'
import { loadSession } from './session.ts'
import { notifyError } from './components/toast.tsx'

loadSession().catch(notifyError)
render(<App />, document.getElementById('app')!)
