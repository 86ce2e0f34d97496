package io.logbloom.loadtest;

/** Entry point of {@code logbloom-loadtest.jar}; filled by the load-test issue. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("logbloom-loadtest: see --help once the harness lands");
    }
}
