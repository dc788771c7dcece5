package judge

// SoakTries bounds a proof: the first soak at the recommended limit, then
// up to two more, each one step higher. minmem's and tune's soaks share it.
const SoakTries = 3
