// Idle is a JVM that does nothing until it is killed: a wrapper script's
// child in the sandbox's tests. Run from source (java Idle.java), so it
// needs no build step.
public class Idle {
    public static void main(String[] args) throws InterruptedException {
        System.out.println("idle");
        Thread.sleep(Long.MAX_VALUE);
    }
}
