package io.github.jvmfit.filecache;

/**
 * Names are map keys, never paths, but they are refused anyway when they look
 * like paths: a client sending one has a bug we should report, not hide.
 */
final class FileNames {
    private FileNames() {
    }

    static String check(String name, int maxLength) {
        if (name == null || name.isEmpty()) throw new BadRequestException("missing file name: add ?name=NAME");
        if (name.length() > maxLength) {
            throw new BadRequestException("file name too long: " + name.length() + " characters, at most " + maxLength);
        }
        if (name.equals(".") || name.equals("..")) throw new BadRequestException("file name may not be '.' or '..'");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') throw new BadRequestException("file name may not contain '/' or '\\'");
            if (Character.isISOControl(c)) throw new BadRequestException("file name may not contain control characters");
        }
        return name;
    }
}
