//go:build linux

package load

import (
	"context"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

func TestLoopbackOnly(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"http://127.0.0.1:8080/", "http://localhost:1/", "http://[::1]:80/", "http://127.1.2.3:5/"} {
		sc, err := scenario.SingleURL("GET", u)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(ctx, sc, Options{}); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	sc, _ := scenario.SingleURL("GET", "http://10.1.2.3:8080/x")
	err := Validate(ctx, sc, Options{})
	if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("remote target: %v", err)
	}
	if err := Validate(ctx, sc, Options{AllowRemote: true}); err != nil {
		t.Errorf("remote allowed: %v", err)
	}
	// Options.Base is checked too.
	sc, _ = scenario.SingleURL("GET", "http://127.0.0.1:1/x")
	if err := Validate(ctx, sc, Options{Base: "http://192.0.2.1:80"}); err == nil {
		t.Error("remote base override accepted")
	}
}

func TestUnreachableTarget(t *testing.T) {
	sc, _ := scenario.SingleURL("GET", "http://127.0.0.1:"+loadtest.ClosedPort(t)+"/x")
	err := Reachable(context.Background(), sc, Options{})
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unreachable: %v", err)
	}
}
