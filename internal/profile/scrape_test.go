package profile

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// A metrics endpoint behind basic authentication, as the panel's metrics
// agent serves one: the URL's user and password, or the password from
// the environment, get in; the password never shows in the profile or in
// an error.
func TestScrapeAuthenticatesAndHidesThePassword(t *testing.T) {
	body, err := os.ReadFile("testdata/client_java_1x.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "jvmfit" || p != "s3cret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="m"`)
			http.Error(w, "who?", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	ctx := context.Background()
	once := Window{Duration: time.Millisecond, Interval: time.Millisecond}

	p, _, err := FromScrape(ctx, "http://jvmfit:s3cret@"+host+"/metrics", once)
	if err != nil {
		t.Fatalf("user and password in the URL: %v", err)
	}
	if strings.Contains(p.From, "s3cret") || !strings.Contains(p.From, "jvmfit:xxxxx@") {
		t.Errorf("the profile's From = %q: want the URL with its password redacted", p.From)
	}

	t.Setenv(ScrapePasswordEnv, "s3cret")
	if _, _, err := FromScrape(ctx, "http://jvmfit@"+host+"/metrics", once); err != nil {
		t.Errorf("the password from $%s: %v", ScrapePasswordEnv, err)
	}

	t.Setenv(ScrapePasswordEnv, "")
	_, _, err = FromScrape(ctx, "http://jvmfit:guess@"+host+"/metrics", once)
	if err == nil || !IsBadInput(err) || strings.Contains(err.Error(), "guess") || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong password: %v; want bad input naming the 401 and not the password", err)
	}
	_, _, err = FromScrape(ctx, "http://"+host+"/metrics", once)
	if err == nil || !strings.Contains(err.Error(), ScrapePasswordEnv) {
		t.Errorf("no credentials: %v; want the way to give them", err)
	}
	if _, _, err = FromScrape(ctx, "ftp://x@"+host+"/", once); err == nil || !IsBadInput(err) {
		t.Errorf("not http: %v; want bad input", err)
	}
}
