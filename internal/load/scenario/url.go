package scenario

import (
	"fmt"
	"net/url"
	"strings"
)

// URL is a URL cut where the load generator needs it.
type URL struct {
	Origin string // scheme://host:port
	Path   string // path?query, at least "/"
	Host   string // host:port
}

// ParseURL accepts plain http:// URLs only, with the port made explicit.
func ParseURL(s string) (*URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL", s)
	}
	if u.Scheme != "http" {
		if u.Scheme == "https" {
			return nil, fmt.Errorf("%q: https is not supported; the load generator talks plain HTTP/1.1 to local services", s)
		}
		return nil, fmt.Errorf("%q is not an http:// URL", s)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%q has no host", s)
	}
	host := u.Host
	if u.Port() == "" {
		host += ":80"
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	// Keep ${...} readable: url.Parse escapes braces in paths.
	p = strings.NewReplacer("%7B", "{", "%7D", "}", "%24", "$").Replace(p)
	return &URL{Origin: "http://" + host, Path: p, Host: host}, nil
}
