package report

import (
	"strconv"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

func timeAfter(seconds int) <-chan time.Time { return time.After(time.Duration(seconds) * time.Second) }
