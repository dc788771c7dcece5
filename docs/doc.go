// Package docs is the documentation: the Markdown pages beside this file.
// Its tests check the pages against the tool they document: every command's
// --help against its page's flags tables, every plan table and shown output
// against what `jvmfit flags` prints, and every measured figure against the
// results file a bench or demo script wrote (bench/results/*.json): tables
// generated from a template of results keys (resulttables_test.go), figures
// bound one by one (figures_test.go), and every table of sizes, times or
// ratios says where each of its figures comes from (tables_test.go).
//
// The tests run the real binary, built once from ../cmd/jvmfit, so what they
// compare is what a user sees, whatever the code behind the commands is.
package docs
