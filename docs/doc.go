// Package docs is the documentation: the Markdown pages beside this file.
// Its tests check the pages against the tool they document: every command's
// --help against its page's flags tables, every plan table and shown output
// against what `jvmfit flags` prints, and every measured figure against the
// results file a bench or demo script wrote (bench/results/*.json); a table of
// sizes, times or ratios says where its figures come from (tables_test.go).
//
// The tests run the real binary, built once from ../cmd/jvmfit, so what they
// compare is what a user sees, whatever the code behind the commands is.
package docs
