package docs_test

import "testing"

// TestStalePlansPerJDK: a plan keyed with its JDK is checked against that
// JDK's plan: today's JDK 21 plan is current under a jdk21 key, and any
// other options under it are stale.
func TestStalePlansPerJDK(t *testing.T) {
	needJava(t)
	java := planJava(t, "jdk21")
	plan := jvmfit(t, "flags", "--memory", "96Mi", "--cpus", "1", "--goal", "balanced", "--java", java)
	r := results{Plans: map[string]string{"96Mi/1/balanced/jdk21": plan[:len(plan)-1]}}
	if got := stalePlans(t, r); len(got) != 0 {
		t.Fatalf("today's JDK 21 plan reported stale: %v", got)
	}
	r.Plans["96Mi/1/balanced/jdk21"] = "-Xmx1m"
	if got := stalePlans(t, r); len(got) != 1 {
		t.Fatalf("a plan JDK 21 does not print was not reported stale: %v", got)
	}
}
