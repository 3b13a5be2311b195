// Imported first by main.ts. The HTTP framework reads NODE_ENV once, when it is imported, and
// outside production it pretty-prints every rejected body into its validation errors: the server
// runs as in production whatever the environment says.
process.env.NODE_ENV = 'production'
