package io.logbloom.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ObjectNotFoundException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

final class ParallelReadsTest {
    @Test
    void aFailedCall_returnsOnlyOnceTheReadsUnderWayHaveFinished() throws Exception {
        ParallelReads parallel = new ParallelReads(2);
        try {
            CountDownLatch secondStarted = new CountDownLatch(1);
            AtomicBoolean secondDone = new AtomicBoolean();
            Callable<Integer> vanished = () -> {
                secondStarted.await();
                throw new ObjectNotFoundException("index/t/0/a");
            };
            Callable<Integer> slow = () -> {
                secondStarted.countDown();
                Thread.sleep(200); // still reading when the first read's failure is met
                secondDone.set(true);
                return 2;
            };
            assertThatThrownBy(() -> parallel.all(List.of(vanished, slow)))
                    .isInstanceOf(ObjectNotFoundException.class);
            // a later miss of the slow read must not reach the store after the caller listed again
            assertThat(secondDone).isTrue();
        } finally {
            parallel.close();
        }
    }
}
