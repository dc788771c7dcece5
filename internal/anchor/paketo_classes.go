package anchor

import (
	"fmt"
	"strconv"
	"strings"
)

// paketoLoadedClasses is the calculator's loaded-class estimate:
// BPL_JVM_LOADED_CLASS_COUNT if set, else 0.35 × (the JVM's classes + the
// app's + its agents' + BPL_JVM_CLASS_ADJUSTMENT), scaled by the
// adjustment when it is a percentage.
func paketoLoadedClasses(in Input) (int, string, error) {
	if s, ok := in.env("BPL_JVM_LOADED_CLASS_COUNT"); ok && s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, "", fmt.Errorf("BPL_JVM_LOADED_CLASS_COUNT=%q: give a whole number", s)
		}
		return n, fmt.Sprintf("BPL_JVM_LOADED_CLASS_COUNT=%d", n), nil
	}
	jvm, err := paketoJVMClasses(in)
	if err != nil {
		return 0, "", err
	}
	if in.Jar == "" {
		return 0, "", fmt.Errorf("paketo: no jar to count classes in: give --jar FILE (or set BPL_JVM_LOADED_CLASS_COUNT)")
	}
	app, err := JarClasses(in.Jar)
	if err != nil {
		return 0, "", fmt.Errorf("paketo: %w", err)
	}
	agents := 0
	for _, o := range in.UserOptions {
		if rest, ok := strings.CutPrefix(o, "-javaagent:"); ok {
			path, _, _ := strings.Cut(rest, "=")
			n, err := JarClasses(path)
			if err != nil {
				return 0, "", fmt.Errorf("paketo: agent: %w", err)
			}
			agents += n
		}
	}
	static, factor, err := paketoAdjustment(in)
	if err != nil {
		return 0, "", err
	}
	total := float64(jvm+app+agents+static) * float64(factor) / 100
	loaded := int(total * paketoClassLoadFactor)
	why := fmt.Sprintf("%d loaded = 0.35 × (%d JVM + %d app + %d agent classes", loaded, jvm, app, agents)
	if static != 0 || factor != 100 {
		why += fmt.Sprintf(" %+d) × %d%%", static, factor)
	} else {
		why += ")"
	}
	return loaded, why, nil
}

func paketoJVMClasses(in Input) (int, error) {
	if s, ok := in.env("BPI_JVM_CLASS_COUNT"); ok && s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("BPI_JVM_CLASS_COUNT=%q: give a whole number", s)
		}
		return n, nil
	}
	if in.JavaHome == "" {
		return 0, fmt.Errorf("paketo: no JDK home to count the JVM's classes in")
	}
	return JVMClasses(in.JavaHome)
}

// paketoAdjustment reads BPL_JVM_CLASS_ADJUSTMENT: "N%" scales the count,
// a plain number adds to it.
func paketoAdjustment(in Input) (static, factor int, err error) {
	s, ok := in.env("BPL_JVM_CLASS_ADJUSTMENT")
	if !ok || s == "" {
		return 0, 100, nil
	}
	if p, isPct := strings.CutSuffix(s, "%"); isPct {
		f, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return 0, 0, fmt.Errorf("BPL_JVM_CLASS_ADJUSTMENT=%q: give a percentage such as 110%% or a number of classes", s)
		}
		return 0, int(f), nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, 0, fmt.Errorf("BPL_JVM_CLASS_ADJUSTMENT=%q: give a percentage such as 110%% or a number of classes", s)
	}
	return n, 100, nil
}
