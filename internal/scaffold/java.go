package scaffold

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/jdk"
)

// PickJava makes sure the check's java can run the app's classes: when the
// JDK jvmfit would use is older than they need, it names the closest
// installed one in app.yaml (java:), or refuses a --java that is too old.
func PickJava(in *Input, javaFlag string) error {
	need := in.Found.JavaVersion
	if need == 0 {
		return nil
	}
	java, err := jdk.Find(javaFlag)
	if err != nil {
		return err
	}
	j, err := jdk.Inspect(java)
	if err != nil || j.Version >= need {
		return err
	}
	if javaFlag != "" {
		return fmt.Errorf("--java %s is Java %d; the app's classes need Java %d or later", javaFlag, j.Version, need)
	}
	newer, ok := jdk.AtLeast("/", need)
	if !ok {
		return fmt.Errorf("the app's classes need Java %d or later and the java found (%s) is %d: give --java PATH to one", need, java, j.Version)
	}
	in.Java = newer.Path
	in.JavaWhy = fmt.Sprintf("the app's classes need Java %d+; %s is %d", need, java, j.Version)
	return nil
}
