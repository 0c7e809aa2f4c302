package web

import "io/fs"

// Page is the page's files (index.html, app.js, worker.js, sw.js,
// style.css) as the server serves them, for `wifodds site` to write as a
// static folder.
func Page() fs.FS {
	page, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded folder is named in this package: cannot happen
	}
	return page
}
