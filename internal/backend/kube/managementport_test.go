package kube

import (
	"strings"
	"testing"
)

// An app whose health has a port of its own is refused in one line: the
// pod would get ${management_port} unexpanded.
func TestNewTaskRefusesManagementPort(t *testing.T) {
	a := testApp()
	a.Ready = "http://127.0.0.1:${management_port}/manage/health"
	_, err := NewTask(testSpec(256*mi), a)
	if err == nil || !strings.Contains(err.Error(), "${management_port}") || !strings.Contains(err.Error(), "--backend local") || strings.Contains(err.Error(), "\n") {
		t.Errorf("%v", err)
	}
	if _, err := NewTask(testSpec(256*mi), testApp()); err != nil {
		t.Error(err)
	}
}
